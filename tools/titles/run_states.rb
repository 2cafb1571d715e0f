# frozen_string_literal: true

# Cuts the route decisions of game logs into state files with the 18xx.games engine
# (tobymao/18xx, Ruby): for every kept `run_routes` action, the board just before it as the
# engine holds it — laid tiles, station tokens, phase, the company, its trains (names and
# ids), its cash and open privates — and what the log ran there: its routes and the
# revenue the engine gave them. Development time only, like dump.rb and judge.rb.
#
#   ruby tools/titles/run_states.rb /tmp/18xx/lib g_1889 /tmp/18xx/public/fixtures/1889/*.json \
#       > tests/data/1889/states.json
#
# With ANSWERS=file.json in the environment (state name → routes, as `route18xx solve --json`
# answers them), each named run_routes is replayed again with those routes in place of the
# log's, and the engine's verdict is added to the state: `engine_verdict` "accepted" with the
# revenue the engine gives them (`engine_revenue`), or "refused" with its reason.
#
# A state file's tokens name a city by its index among the tile's cities; a tile by its
# 18xx.games name and rotation (docs/state-files.md). The rule set is the log's optional
# rules sorted and joined by '+', or 'standard'.

require 'json'

$LOAD_PATH.unshift(File.join(__dir__, 'stub'))

LIB = ARGV[0]
$LOAD_PATH.unshift(LIB)

require_relative 'engine_loader'
require_rel(*Dir.glob(File.join(LIB, 'engine', 'game', ARGV[1], '**', '*.rb')).sort)
module Engine
  def self.game_by_title(title)
    Engine::Game.constants.map { |c| Game.const_get(c) }
      .map { |m| m.constants.include?(:Game) ? m::Game : nil }.compact
      .find { |g| g.title == title }
  end
end

def board_state(game, corp, rule_set)
  tiles = game.hexes.reject { |h| h.tile.preprinted }.map do |h|
    { 'hex' => h.id, 'tile' => h.tile.name, 'rotation' => h.tile.rotation }
  end
  tokens = game.hexes.flat_map do |h|
    h.tile.cities.each_with_index.flat_map do |city, i|
      city.tokens.compact.map { |t| { 'hex' => h.id, 'city' => i, 'corporation' => t.corporation.id } }
    end
  end
  {
    'title' => game.class.title,
    'rule_set' => rule_set,
    'phase' => game.phase.name,
    'corporation' => corp.id,
    'trains' => corp.trains.map(&:name),
    'train_ids' => corp.trains.map(&:id),
    'tiles' => tiles.sort_by { |t| t['hex'] },
    'tokens' => tokens.sort_by { |t| [t['hex'], t['city'], t['corporation']] },
    'cash' => corp.cash,
    'privates' => corp.companies.reject(&:closed?).map(&:sym),
  }
end

ANSWERS = ENV['ANSWERS'] ? JSON.parse(File.read(ENV['ANSWERS'])) : {}

# The engine's verdict on `routes` run in place of the log's at `action_id`.
def verdict(data, action_id, routes)
  copy = JSON.parse(JSON.generate(data))
  action = copy['actions'].find { |a| a['id'] == action_id }
  action['routes'] = routes.map { |r| r.slice('train', 'connections', 'hexes', 'nodes') }
  game = Engine::Game.load(copy, at_action: 0)
  game.process_to_action(action_id)
  return { 'engine_verdict' => 'refused', 'engine_reason' => game.exception.message[0, 300] } if game.exception

  { 'engine_verdict' => 'accepted', 'engine_revenue' => game.round.routes.sum(&:revenue) }
rescue StandardError => e
  { 'engine_verdict' => 'refused', 'engine_reason' => "#{e.class}: #{e.message[0, 300]}" }
end

states = []
ARGV[2..].each do |path|
  data = JSON.parse(File.read(path))
  rules = ((data['settings'] || {})['optional_rules'] || []).map(&:to_s).sort
  rule_set = rules.empty? ? 'standard' : rules.join('+')
  kept, = Engine::Game::Base.filtered_actions(data['actions'])
  keep = kept.compact.map { |a| a['id'] }.to_h { |id| [id, true] }
  game = Engine::Game.load(data, at_action: 0)
  data['actions'].each do |action|
    if action['type'] == 'run_routes' && keep[action['id']]
      corp = game.corporation_by_id(action['entity'])
      state = board_state(game, corp, rule_set)
      game.process_to_action(action['id'])
      raise "#{path}: action #{action['id']}: #{game.exception}" if game.exception

      revenue = game.round.routes.sum(&:revenue)
      name = "#{File.basename(path, '.json')}-#{action['id']}"
      entry = { 'name' => name, 'state' => state, 'routes' => action['routes'], 'recorded_revenue' => revenue }
      if ANSWERS[name]
        entry['optimal_routes'] = ANSWERS[name]
        entry.merge!(verdict(data, action['id'], ANSWERS[name]))
      end
      states << entry
    else
      game.process_to_action(action['id'])
      raise "#{path}: action #{action['id']}: #{game.exception}" if game.exception
    end
  end
end
puts JSON.pretty_generate({
  '_doc' => 'The route decisions of the logs, cut by tools/titles/run_states.rb from the ' \
            '18xx.games engine: each kept run_routes with the board before it, the routes run ' \
            'and the revenue the engine gave them.',
  'states' => states,
})
