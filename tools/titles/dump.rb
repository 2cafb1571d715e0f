# frozen_string_literal: true

# Dumps one title's facts from the 18xx.games engine (tobymao/18xx, Ruby) as raw JSON.
#
# Development time only: it needs Debian's `ruby` and an extracted engine tree; nothing at
# run time or in CI reads it. generate.py runs it and shapes the output into
# engine/data/<title>/ (see README.md next to this file).
#
#   ruby tools/titles/dump.rb --lib /tmp/18xx/lib --title 1830 \
#        --rule-sets '{"standard": [], "optional_6_train": ["optional_6_train"]}' \
#        [--players 4] [--fixture /tmp/18xx/public/fixtures/1830/26855.json ...] > raw.json
#
# The output is "raw": engine objects turned into plain JSON with the engine's own names;
# every choice of shape (key names, order, which fields) is generate.py's.

require 'json'
require 'optparse'

$LOAD_PATH.unshift(File.join(__dir__, 'stub'))

options = { players: 4, fixtures: [], rule_sets: '{}' }
OptionParser.new do |o|
  o.on('--lib DIR') { |v| options[:lib] = File.expand_path(v) }
  o.on('--title TITLE') { |v| options[:title] = v }
  o.on('--folder NAME') { |v| options[:folder] = v }
  o.on('--rule-sets JSON') { |v| options[:rule_sets] = v }
  o.on('--players N', Integer) { |v| options[:players] = v }
  o.on('--fixture FILE') { |v| options[:fixtures] << v }
end.parse!
abort('dump.rb: --lib and --title are required') unless options[:lib] && options[:title]

LIB = options[:lib]
$LOAD_PATH.unshift(LIB)

require_relative 'engine_loader'

def folder_for(title)
  'g_' + title.gsub(/(\d)([A-Za-z])/, '\1_\2').gsub(/([a-z])([A-Z])/, '\1_\2').downcase
end

FOLDER = options[:folder] || folder_for(options[:title])
title_dir = File.join(LIB, 'engine', 'game', FOLDER)
abort("dump.rb: no engine folder #{title_dir}") unless File.directory?(title_dir)
require_rel(*Dir.glob(File.join(title_dir, '**', '*.rb')).sort)

GAME_CLASS = Engine::Game.constants.map do |c|
  const = Engine::Game.const_get(c)
  const.const_get(:Game) if const.is_a?(Module) && const.constants.include?(:Game)
end.compact.find { |g| g.respond_to?(:title) && g.title == options[:title] }
abort("dump.rb: no game class titled #{options[:title]}") unless GAME_CLASS

# Engine::Game.load resolves the title through lib/engine.rb, which loads every title.
module Engine
  def self.game_by_title(_title)
    GAME_CLASS
  end
end

# ---------------------------------------------------------------------------------------
# Plain values

def plain(value)
  case value
  when nil, true, false, Integer, String then value
  when Float then value
  when Symbol then value.to_s
  when Array then value.map { |v| plain(v) }
  when Hash then value.to_h { |k, v| [k.to_s, plain(v)] }
  else
    value.respond_to?(:id) ? plain(value.id) : value.to_s
  end
end

def new_game(optional_rules, players)
  names = (1..players).to_h { |i| [i, "Player #{i}"] }
  GAME_CLASS.new(names, id: 1, actions: [], optional_rules: optional_rules.map(&:to_sym))
end

# ---------------------------------------------------------------------------------------
# Tiles and hexes

def revenue_center(part, tile)
  rev = part.revenue
  render = part.revenue_to_render
  {
    'index' => tile.parts.index(part),
    'revenue' => render.is_a?(Hash) ? plain(rev) : rev.values.first,
    'phase_revenue' => plain(rev),
    'slots' => part.respond_to?(:normal_slots) ? part.normal_slots : nil,
    'groups' => plain(part.groups),
    'visit_cost' => part.visit_cost,
    'hide' => part.hide ? true : false,
    'loc' => part.loc,
  }
end

def path_end(part, tile)
  return { 'edge' => part.num } if part.edge?
  return { 'city' => tile.parts.index(part) } if part.city?
  return { 'town' => tile.parts.index(part) } if part.town?
  return { 'offboard' => tile.parts.index(part) } if part.offboard?
  return { 'junction' => tile.parts.index(part) } if part.junction?

  { 'other' => part.class.name }
end

def tile_facts(tile)
  {
    'name' => tile.name,
    'id' => tile.id,
    'color' => tile.color.to_s,
    'cities' => tile.cities.map { |c| revenue_center(c, tile) },
    'towns' => tile.towns.map { |t| revenue_center(t, tile) },
    'offboards' => tile.offboards.map { |o| revenue_center(o, tile) },
    'paths' => tile.paths.map do |p|
      h = { 'a' => path_end(p.a, tile), 'b' => path_end(p.b, tile) }
      h['terminal'] = p.terminal if p.terminal
      h
    end,
    'labels' => tile.labels.map(&:to_s),
    'exits' => tile.exits.sort,
    'upgrades' => tile.upgrades.map { |u| { 'cost' => u.cost, 'terrains' => plain(u.terrains) } },
    'borders' => tile.borders.map { |b| { 'edge' => b.edge, 'type' => plain(b.type), 'cost' => b.cost } },
    'icons' => tile.icons.map { |i| i.name },
    'blockers' => tile.blockers.map { |b| plain(b) },
    'reservations' => tile.reservations.map { |r| plain(r) },
  }.merge(tile.blocks_lay ? { 'blocks_lay' => true } : {}).merge(future_label(tile))
end

# The label a hex's tile takes from a colour on (1856's B-L hexes: Bar or Lon in brown, the
# future L cities), written only where there is one.
def future_label(tile)
  label = tile.future_label
  return {} unless label

  { 'future_label' => { 'label' => label.label.to_s, 'color' => label.color.to_s } }
end

# The title's own upgrade test of `to` on `from`. A supply tile stands on no hex; a test that
# reads the tile's hex (1856's Hamilton rule: `from.hex.name`) is asked again with the tile on
# a plain stand-in hex (white, no label, no city or town), as on any hex but a named one.
def upgrade_test(game, from, to)
  game.upgrades_to?(from, to)
rescue NoMethodError
  raise unless from.hex.nil?

  begin
    from.hex = stand_in_hex(game)
    game.upgrades_to?(from, to)
  ensure
    from.hex = nil
  end
end

def stand_in_hex(game)
  game.hexes.find { |h| h.tile.color == :white && h.tile.labels.empty? && h.tile.city_towns.empty? }
end

# The supply tiles the title's own (non-special) upgrade test accepts on `from`, and the
# errors the test raised (a title's test may need more than a tile: the shaper refuses those).
def upgrades(game, from, supply)
  results = supply.map do |to|
    upgrade_test(game, from, to)
  rescue StandardError => e
    "#{e.class}: #{e.message}"
  end
  {
    'upgrades_to' => supply.zip(results).select { |_, ok| ok == true }.map { |t, _| t.name },
    'upgrade_errors' => results.grep(String).uniq,
  }
end

def hexes_facts(game, supply)
  game.hexes.map do |hex|
    tile = hex.tile
    reservations = tile.cities.each_with_index.flat_map do |city, i|
      city.reservations.compact.map { |r| { 'corporation' => plain(r), 'city' => i } }
    end
    tile.reservations.each { |r| reservations << { 'corporation' => plain(r), 'city' => nil } }
    {
      'id' => hex.id,
      'x' => hex.x,
      'y' => hex.y,
      'location_name' => hex.location_name,
      'tile' => tile_facts(tile),
      'reservations' => reservations,
      'all_neighbors' => hex.all_neighbors.to_h { |e, h| [e.to_s, h.id] },
      'neighbors' => hex.neighbors.to_h { |e, h| [e.to_s, h.id] },
    }.merge(upgrades(game, tile, supply))
  end
end

# ---------------------------------------------------------------------------------------
# Entities

def ability_facts(ability)
  skip = %i[@owner @game @description @desc_detail]
  h = { 'type' => ability.type.to_s }
  ability.instance_variables.each do |iv|
    next if skip.include?(iv)

    h[iv.to_s.delete('@')] = plain(ability.instance_variable_get(iv))
  end
  h['passive'] = ability.passive
  h
end

def company_facts(company)
  {
    'sym' => company.sym,
    'name' => company.name,
    'value' => company.value,
    'revenue' => company.revenue,
    'min_price' => company.min_price,
    'max_price' => company.max_price,
    'desc' => company.desc,
    'abilities' => company.all_abilities.map { |a| ability_facts(a) },
  }
end

def corporation_facts(game, corp)
  {
    'sym' => corp.id,
    'name' => corp.full_name,
    'coordinates' => plain(corp.coordinates),
    'city' => corp.city,
    'location_name' => corp.coordinates.is_a?(String) ? game.hex_by_id(corp.coordinates)&.location_name : nil,
    'token_prices' => corp.tokens.select { |t| t.corporation == corp }.map(&:price),
    'float_percent' => corp.float_percent,
    'max_ownership_percent' => corp.max_ownership_percent,
    'capitalization' => plain(corp.capitalization),
    'shares' => corp.shares.map { |s| { 'id' => s.id, 'percent' => s.percent, 'president' => s.president } },
    'color' => plain(corp.color),
    'text_color' => plain(corp.text_color),
    'destination_coordinates' => plain(corp.destination_coordinates),
  }.merge(neutral_tokens(corp))
end

# Tokens a corporation holds that belong to another (1882: each corporation's one neutral
# station, owned by CN, g_1882/game.rb init_corporations); none in most titles.
def neutral_tokens(corp)
  others = corp.tokens.reject { |t| t.corporation == corp }
  return {} if others.empty?

  { 'neutral_tokens' => others.map { |t| { 'owner' => t.corporation.id, 'price' => t.price } } }
end

def train_facts(train)
  {
    'name' => train.name,
    'id' => train.id,
    'distance' => plain(train.distance),
    'price' => train.price,
    'rusts_on' => train.rusts_on,
    'obsolete_on' => train.obsolete_on,
    'available_on' => train.available_on,
    'discount' => plain(train.discount),
    'events' => train.events.map { |e| e['type'] },
    'unlimited' => train.unlimited,
  }
end

def phase_facts(phase)
  {
    'name' => phase[:name],
    'on' => plain(phase[:on]),
    'train_limit' => plain(phase[:train_limit]),
    'tiles' => plain(phase[:tiles]),
    'operating_rounds' => phase[:operating_rounds],
    'status' => plain(phase[:status] || []),
  }
end

def market_facts(game)
  colors = game.class::STOCKMARKET_COLORS
  {
    'grid' => game.stock_market.market.map do |row|
      row.map do |cell|
        next nil unless cell

        {
          'price' => cell.price,
          'types' => plain(cell.types),
          'colors' => cell.types.map { |t| plain(colors[t]) },
          'can_par' => cell.can_par?,
          'counts_for_limit' => cell.counts_for_limit,
          'buy_multiple' => cell.buy_multiple?,
        }
      end
    end,
    'par_prices' => game.stock_market.par_prices.map do |p|
      { 'price' => p.price, 'row' => p.coordinates[0], 'col' => p.coordinates[1] }
    end,
  }
end

def rule_set_facts(game, optional_rules)
  tiles = game.all_tiles.group_by(&:name).map do |name, copies|
    # an unlimited tile (18Chesapeake's 7, 8, 9) is one copy the engine adds to as it is laid
    { 'name' => name, 'count' => copies.size }.merge(copies.first.unlimited ? { 'unlimited' => true } : {})
  end
  trains = game.depot.trains
  {
    'optional_rules' => optional_rules,
    'tiles' => tiles,
    'companies' => in_definition_order(game.companies).map { |c| company_facts(c) },
    'corporations' => game.corporations.map { |c| corporation_facts(game, c) },
    'trains' => trains.group_by(&:name).map do |name, copies|
      train_facts(copies.first).merge('count' => copies.first.unlimited ? nil : copies.size, 'name' => name)
    end,
    'depot' => trains.map(&:id),
    'phases' => game.phase.phases.map { |p| phase_facts(p) },
    'market' => market_facts(game),
    'destinations' => destinations(game),
  }
end

# The companies in the order the title defines them (COMPANIES): a rule set may shuffle
# them (1889's beginner game hands them out in a random order).
def in_definition_order(companies)
  order = GAME_CLASS.const_defined?(:COMPANIES) ? GAME_CLASS::COMPANIES.map { |c| c[:sym] } : []
  companies.each_with_index.sort_by { |c, i| [order.index(c.sym) || order.size, i] }.map(&:first)
end

# Destination hexes and bonuses where the title's game class names them (1888:
# DESTINATION_HEX_NORTH / DESTINATION_BONUS_NORTH through destination_hex / destination_bonus).
def destinations(game)
  return nil unless game.respond_to?(:destination_hex) && game.respond_to?(:destination_bonus)
  return nil unless game.method(:destination_hex).arity.zero? && game.method(:destination_bonus).arity.zero?

  hexes = game.destination_hex
  bonus = game.destination_bonus
  game.corporations.to_h { |c| [c.id, { 'hexes' => plain(hexes[c.name]), 'bonus' => bonus[c.name] }] }
end

def static_facts(optional_rules_by_set, players)
  games = optional_rules_by_set.to_h { |name, rules| [name, new_game(rules, players)] }
  first = games.values.first
  supply = []
  games.each_value do |g|
    g.all_tiles.each { |t| supply << t unless supply.any? { |s| s.name == t.name } }
  end
  {
    'title' => GAME_CLASS.title,
    'folder' => FOLDER,
    'game_class' => GAME_CLASS.name,
    'layout' => plain(first.layout),
    'impassable_hex_colors' => plain(GAME_CLASS::IMPASSABLE_HEX_COLORS),
    'currency_format' => GAME_CLASS::CURRENCY_FORMAT_STR,
    'optional_rules' => plain(GAME_CLASS::OPTIONAL_RULES),
    'rule_sets' => games.to_h { |name, g| [name, rule_set_facts(g, optional_rules_by_set[name])] },
    'supply' => supply.map { |t| tile_facts(t).merge(upgrades(first, t, supply)) },
    'hexes' => games.to_h { |name, g| [name, hexes_facts(g, supply)] },
  }
end

# ---------------------------------------------------------------------------------------
# Fixture replays: the state at the start and after every action that moves the engine to a
# new round or ends the game.

# A holder's percent of a corporation, without the engine's default proc (which would add
# an empty entry to the holder's hash and so change the order later dumps see).
def percent(holder, corp)
  holder.shares_by_corporation.fetch(corp, []).sum(&:percent)
end

def round_facts(round)
  {
    'kind' => round.class.name.split('::').last,
    'engine_class' => round.class.name,
    'name' => round.name,
    'round_num' => round.round_num,
  }
end

def state_facts(game)
  {
    'round' => round_facts(game.round),
    'turn' => game.turn,
    'phase' => game.phase.name,
    'bank' => game.bank.cash,
    'players' => game.players.map do |p|
      {
        'name' => p.name,
        'cash' => p.cash,
        'value' => game.player_value(p),
        'shares' => p.shares_by_corporation.map { |c, shares| [c.id, shares.sum(&:percent)] }
                      .reject { |_, pct| pct.zero? },
        'companies' => p.companies.map(&:sym),
        'bankrupt' => p.bankrupt ? true : false,
      }
    end,
    'corporations' => game.corporations.map do |c|
      {
        'sym' => c.id,
        'ipoed' => c.ipoed ? true : false,
        'cash' => c.cash,
        'price' => c.share_price&.price,
        'price_cell' => c.share_price&.coordinates,
        'par' => c.par_price&.price,
        'floated' => c.floated? ? true : false,
        'president' => c.owner&.name,
        'trains' => c.trains.map(&:id),
        'companies' => c.companies.map(&:sym),
        'tokens' => c.tokens.select(&:used).map { |t| "#{t.city.hex.id}/#{t.city.id}" },
        'pool_percent' => percent(game.share_pool, c),
        'ipo_percent' => percent(c.ipo_owner, c),
        'closed' => c.closed? ? true : false,
      }
    end,
    'companies_closed' => game.companies.select(&:closed?).map(&:sym),
    'depot_next' => game.depot.upcoming.first&.id,
    'depot_discarded' => game.depot.discarded.map(&:id),
    'finished' => game.finished ? true : false,
    'game_end_reason' => plain(game.game_end_reason),
  }
end

def replay(path)
  data = JSON.parse(File.read(path))
  raw = data['actions']
  kept, = Engine::Game::Base.filtered_actions(raw)
  game = Engine::Game.load(data, at_action: 0)
  snapshots = [{ 'after_raw_id' => 0, 'after_kept_id' => 0, 'trigger' => 'start', 'state' => state_facts(game) }]
  last_kept = 0
  raw.each_with_index do |action, index|
    before_round = game.round
    before = round_facts(before_round).merge('turn' => game.turn)
    was_finished = game.finished
    game.process_to_action(action['id'])
    raise "#{path}: action #{action['id']}: #{game.exception}" if game.exception

    last_kept = action['id'] if kept[index]
    trigger = if game.finished && !was_finished then 'game_end'
              elsif !game.round.equal?(before_round) then 'round'
              end
    next unless trigger

    snapshots << {
      'after_raw_id' => action['id'],
      'after_kept_id' => last_kept,
      'raw_index' => index,
      'trigger' => trigger,
      'previous_round' => before,
      'state' => state_facts(game),
    }
  end
  {
    'optional_rules' => plain(game.optional_rules),
    'settings_optional_rules' => (data['settings'] || {})['optional_rules'] || [],
    'players' => data['players'].map { |p| { 'id' => p['id'], 'name' => p['name'] } },
    'recorded_result' => data['result'],
    'recorded_game_end_reason' => data['game_end_reason'],
    'result' => game.result.map { |id, value| [game.player_by_id(id).name, value] },
    'finished' => game.finished ? true : false,
    'game_end_reason' => plain(game.game_end_reason),
    'raw_action_ids' => raw.map { |a| a['id'] },
    'kept_action_ids' => kept.compact.map { |a| a['id'] },
    'snapshots' => snapshots,
  }
end

rule_sets = JSON.parse(options[:rule_sets])
rule_sets = { 'standard' => [] } if rule_sets.empty?
out = static_facts(rule_sets, options[:players])
out['fixtures'] = options[:fixtures].to_h { |f| [File.basename(f, '.json'), replay(f)] }
puts JSON.pretty_generate(out)
