# frozen_string_literal: true

# Golden data from the 18xx.games engine (tobymao/18xx, Ruby), issue 36 item 4: the board
# before every recorded `run_routes` of a title's fixture logs, and the engine's verdict on
# routes submitted in place of the recorded ones.
#
# Development time only, like dump.rb and judge.rb: it needs Debian's `ruby` and an extracted
# engine tree; nothing at run time or in CI reads it. golden.py runs it (see README.md here).
#
#   ruby tools/titles/golden.rb --lib /tmp/18xx/lib --title 1888 states FIXTURE.json ... > runs.json
#   ruby tools/titles/golden.rb --lib /tmp/18xx/lib --title 1888 judge SUBMISSIONS.json > verdicts.json
#
# `states` replays each log through the engine's own load path (Game.load at action 0, then
# process_to_action over every raw action: undone actions skipped, kept ones processed live)
# and, before every kept `run_routes`, writes the running company's board in the common
# state-file schema (docs/state-files.md) as the engine holds it, with the recorded routes,
# revenue and subsidy; it also judges the recorded routes again (below), a control of the judge.
#
# `judge` replays each log named in SUBMISSIONS ({"fixtures": {path: [{"action_id", "key",
# "routes"}]}}) the same way and, at each named action, submits each route set as the site's
# route selector does: a RunRoutes built from the routes' train, connections and nodes alone
# (no revenue, revenue_str, subsidy or hexes: a route with a revenue skips the checks), with
# extra_revenue and subsidy the game computes for them, processed live (process_action). Each
# submission runs in a forked copy of the game at that point, so the replay goes on with the
# recorded action. A verdict is accepted (with the engine's revenue and subsidy for the routes)
# or refused with the engine's message.
#
# Nothing here is title-specific: every field comes from the engine's objects for the title.

require 'json'
require 'optparse'

$LOAD_PATH.unshift(File.join(__dir__, 'stub'))

options = {}
OptionParser.new do |o|
  o.on('--lib DIR') { |v| options[:lib] = File.expand_path(v) }
  o.on('--title TITLE') { |v| options[:title] = v }
  o.on('--folder NAME') { |v| options[:folder] = v }
end.parse!
abort('golden.rb: --lib and --title are required') unless options[:lib] && options[:title]
COMMAND = ARGV.shift
abort('golden.rb: states FIXTURE... | judge SUBMISSIONS') unless %w[states judge].include?(COMMAND)

LIB = options[:lib]
$LOAD_PATH.unshift(LIB)

require_relative 'engine_loader'

def folder_for(title)
  'g_' + title.gsub(/(\d)([A-Za-z])/, '\1_\2').gsub(/([a-z])([A-Z])/, '\1_\2').downcase
end

FOLDER = options[:folder] || folder_for(options[:title])
title_dir = File.join(LIB, 'engine', 'game', FOLDER)
abort("golden.rb: no engine folder #{title_dir}") unless File.directory?(title_dir)
require_rel(*Dir.glob(File.join(title_dir, '**', '*.rb')).sort)

GAME_CLASS = Engine::Game.constants.map do |c|
  const = Engine::Game.const_get(c)
  const.const_get(:Game) if const.is_a?(Module) && const.constants.include?(:Game)
end.compact.find { |g| g.respond_to?(:title) && g.title == options[:title] }
abort("golden.rb: no game class titled #{options[:title]}") unless GAME_CLASS

# Engine::Game.load resolves the title through lib/engine.rb, which loads every title.
module Engine
  def self.game_by_title(_title)
    GAME_CLASS
  end
end

# ---------------------------------------------------------------------------------------
# The board in the common state-file schema (docs/state-files.md, STATE-FILES.md)

def corporation_type(entity)
  return 'minor' if entity.minor? || entity.type == :minor
  return 'national' if entity.type == :national

  'corporation'
end

def blocks_hexes?(company)
  company.all_abilities.any? { |a| a.type == :blocks_hexes }
end

def board_tiles(game)
  game.hexes.reject { |hex| hex.tile.preprinted }.map do |hex|
    { 'hex' => hex.id, 'tile' => hex.tile.name, 'rotation' => hex.tile.rotation }
  end
end

def board_tokens(game)
  game.hexes.flat_map do |hex|
    hex.tile.cities.flat_map do |city|
      (city.tokens + city.extra_tokens).compact.select(&:corporation).map do |token|
        { 'hex' => hex.id, 'city' => city.index, 'corporation' => token.corporation.id }
      end
    end
  end
end

def board_reservations(game)
  game.hexes.flat_map do |hex|
    hex.tile.cities.flat_map do |city|
      city.reservations.compact.map do |r|
        { 'hex' => hex.id, 'city' => city.index, 'corporation' => r.id }
      end
    end
  end
end

# Markers on hexes, then on corporations (1856's port: the GLSC marker on a hex and on the
# corporation that placed it; the engine pays a route only when both are there).
def board_assignments(game)
  on_hexes = game.hexes.flat_map do |hex|
    hex.assignments.map { |a, v| { 'hex' => hex.id, 'assignment' => a.to_s, 'value' => v } }
  end
  on_corporations = game.corporations.flat_map do |corp|
    corp.assignments.map { |a, v| { 'corporation' => corp.id, 'assignment' => a.to_s, 'value' => v } }
  end
  on_hexes + on_corporations
end

# The running company's own per-hex route bonuses (18xx.games ``hex_bonus`` abilities: 1856's
# bridge and tunnel rights), written only where it has one.
def hex_bonuses(entity)
  found = entity.all_abilities.select { |a| a.type == :hex_bonus }
  return {} if found.empty?

  { 'hex_bonuses' => found.map { |a| { 'hexes' => a.hexes, 'value' => a.amount } } }
end

# The state file of `entity`'s run at this point of `game` (issue 36; rule_set is named by
# golden.py from the title's rule_sets.json).
def state_file(game, data, entity, tiles_laid)
  trains = game.route_trains(entity)
  {
    'title' => game.class.title,
    'optional_rules' => (data['settings'] || {})['optional_rules'] || [],
    'phase' => game.phase.name,
    'corporation' => entity.id,
    'corporation_type' => corporation_type(entity),
    'trains' => trains.map(&:name),
    'train_ids' => trains.map(&:id),
    'tiles' => board_tiles(game),
    'tokens' => board_tokens(game),
    'cash' => entity.cash,
    'privates' => entity.companies.reject(&:closed?).map(&:sym),
    'player_owned_blockers' => game.companies.select do |c|
      !c.closed? && c.owner&.player? && blocks_hexes?(c)
    end.map(&:sym),
    'tiles_laid' => tiles_laid,
    'players' => game.players.size,
    'reservations' => board_reservations(game),
    'assignments' => board_assignments(game),
  }.merge(hex_bonuses(entity))
end

# ---------------------------------------------------------------------------------------
# Judging a route set as the site's route selector submits it

def submitted_routes(routes)
  routes.map do |r|
    h = { 'train' => r['train'], 'connections' => r['connections'] }
    h['nodes'] = r['nodes'] if r['nodes']
    h
  end
end

def judge_here(game, entity, routes)
  game.instance_variable_set(:@loading, false) # a live action, as a player's submission
  h = { 'type' => 'run_routes', 'entity' => entity.id, 'entity_type' => entity.class.name.split('::').last.downcase,
        'routes' => submitted_routes(routes) }
  args = Engine::Action::RunRoutes.h_to_args(h, game)
  built = args[:routes]
  action = Engine::Action::RunRoutes.new(entity, routes: built,
                                                 extra_revenue: game.extra_revenue(entity, built),
                                                 subsidy: game.routes_subsidy(built))
  game.process_action(action)
  return { 'accepted' => false, 'reason' => game.exception.message.to_s } if game.exception

  {
    'accepted' => true,
    'revenue' => game.routes_revenue(built),
    'subsidy' => game.routes_subsidy(built),
    'extra_revenue' => action.extra_revenue || 0,
    'routes' => built.map do |r|
      { 'train' => r.train.id, 'revenue' => r.revenue, 'revenue_str' => r.revenue_str,
        'nodes' => r.visited_stops.map(&:signature) }
    end,
  }
rescue StandardError => e # raised while the selector builds or prices the routes
  { 'accepted' => false, 'reason' => "#{e.class.name.split('::').last}: #{e.message}" }
end

# The verdict on `routes` at this point, judged in a forked copy of the game. Routes that name
# no connections (the log form before connections were written: hexes alone) cannot be
# rebuilt by today's engine and are not judged.
def judge(game, entity, routes)
  if routes.any? { |r| !r['connections'] }
    return { 'judged' => false, 'reason' => 'the routes name no connections (an older log form)' }
  end

  reader, writer = IO.pipe
  pid = fork do
    reader.close
    writer.write(JSON.generate(judge_here(game, entity, routes)))
    writer.close
    exit!(0)
  end
  writer.close
  out = reader.read
  reader.close
  Process.wait(pid)
  out.empty? ? { 'accepted' => false, 'reason' => 'judge process died' } : JSON.parse(out)
end

# ---------------------------------------------------------------------------------------
# The replay: before every kept run_routes, yield the game, the company and the action

# What the engine paid for the recorded run in the replay (just after the run_routes): the log's
# own figure for a route that writes one, else the engine's price of it when the log was loaded.
def recorded_figures(game, action)
  processed = game.actions.last # its id is the engine's count of kept actions, not the log's
  raise "action #{action['id']}: the last processed action is #{processed.type}" unless processed.is_a?(Engine::Action::RunRoutes)

  routes = processed.routes
  {
    'routes' => action['routes'] || [],
    'revenue' => game.routes_revenue(routes),
    'subsidy' => game.routes_subsidy(routes),
    'extra_revenue' => processed.extra_revenue || 0,
    'revenue_in_log' => (action['routes'] || []).all? { |r| r.key?('revenue') },
  }
end

# The operating turn the game is in: the round, and the company operating (a private acting for
# it, such as a second lay of the same ability, makes the private the current entity).
def operating_turn(game)
  round = game.round
  operator = round.respond_to?(:current_operator) ? round.current_operator : round.current_entity
  [game.turn, round.class.name, round.round_num, round.entity_index, operator&.id]
end

# Replays the log as the engine loads a game (Game.load: the kept actions processed in loading
# mode, which skips the checks of tile lays and tokens already accepted when they were played)
# and yields before (`:before`, with the company and the lays of its turn so far) and after
# (`:after`) every kept run_routes.
RELOADS = []

def each_run(path)
  data = JSON.parse(File.read(path))
  raw = data['actions']
  kept, = Engine::Game::Base.filtered_actions(raw)
  game = Engine::Game.load(data, at_action: 0)
  game.instance_variable_set(:@loading, true)
  turn = nil
  laid = []
  raw.each_with_index do |action, index|
    if kept[index]
      key = operating_turn(game)
      laid = [] unless key == turn
      turn = key
      if action['type'] == 'run_routes'
        entity = game.round.current_entity
        raise "#{path}: action #{action['id']}: run by #{action['entity']}, not #{entity&.id}" \
          unless entity&.id == action['entity']

        yield :before, game, data, entity, action, laid
      elsif action['type'] == 'lay_tile'
        lay = { 'hex' => action['hex'] }
        lay['private'] = action['entity'] if action['entity_type'] == 'company'
        laid += [lay]
      end
    end
    game.process_to_action(action['id'])
    if game.exception
      # Stepping can differ from one load: 1856's hotseat001 refuses action 45 after a stop at 17,
      # as the engine's own Game.load(at_action: 17) then process_to_action(45) does. Load the
      # game up to this action in one go, as the site does, and go on from there.
      warn("golden.rb: #{File.basename(path)}: action #{action['id']}: #{game.exception.message[0, 120]}; "\
           "loading the game up to it in one go")
      RELOADS << "#{File.basename(path, '.json')}-#{action['id']}"
      game = Engine::Game.load(data, at_action: action['id'])
      raise "#{path}: action #{action['id']}: #{game.exception}" if game.exception

      game.instance_variable_set(:@loading, true)
    end

    yield :after, game, data, nil, action, nil if kept[index] && action['type'] == 'run_routes'
  end
  game.instance_variable_set(:@loading, false)
  game
end

def states(paths)
  paths.map do |path|
    runs = []
    game = each_run(path) do |at, g, data, entity, action, laid|
      if at == :after
        runs.last['recorded'] = recorded_figures(g, action)
        next
      end
      runs << {
        'action_id' => action['id'],
        'turn' => g.turn,
        'round' => g.round.name,
        'round_num' => g.round.round_num,
        'state' => state_file(g, data, entity, laid),
        'recorded_verdict' => judge(g, entity, action['routes'] || []),
      }
    end
    data = JSON.parse(File.read(path))
    {
      'fixture' => File.basename(path, '.json'),
      'created_at' => data['created_at'],
      'finished' => game.finished ? true : false,
      'result_matches' => game.result.transform_keys(&:to_s) == (data['result'] || {}).transform_keys(&:to_s),
      'runs' => runs,
    }
  end
end

def judge_all(submissions)
  submissions['fixtures'].map do |path, subs|
    by_action = subs.group_by { |s| s['action_id'] }
    verdicts = []
    each_run(path) do |at, g, _data, entity, action, _laid|
      next if at == :after

      (by_action.delete(action['id']) || []).each do |sub|
        verdicts << { 'action_id' => action['id'], 'key' => sub['key'],
                      'verdict' => judge(g, entity, sub['routes']) }
      end
    end
    by_action.each_key { |id| warn("golden.rb: #{path}: no kept run_routes #{id}") }
    { 'fixture' => File.basename(path, '.json'), 'verdicts' => verdicts }
  end
end

out = if COMMAND == 'states'
        { 'title' => GAME_CLASS.title, 'fixtures' => states(ARGV), 'reloaded_at' => RELOADS }
      else
        { 'title' => GAME_CLASS.title, 'fixtures' => judge_all(JSON.parse(File.read(ARGV[0]))) }
      end
puts JSON.generate(out)
