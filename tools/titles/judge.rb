# frozen_string_literal: true

# Judges game logs with the 18xx.games engine (tobymao/18xx, Ruby): each log is replayed
# action by action through the engine's own load path, and the first action it refuses
# is printed, or, at the end, whether its final scores equal the log's recorded result.
#
# Development time only, like dump.rb: it needs Debian's `ruby` and an extracted engine
# tree; nothing at run time or in CI reads it. Used to judge the generated test corpus
# (tests/data/generated) whenever it is made again (issue 33: it found our engine's
# reversing-junction reach, the discard pile and the bankrupt president's shares).
#
#   git --git-dir=/work/.mirror/tobymao+18xx/repo archive HEAD lib | tar -x -C /tmp/18xx
#   ruby tools/titles/judge.rb /tmp/18xx/lib g_1888 tests/data/generated/*.json.gz
#
# Prints one line per log: "<file>: OK finished=... result_match=... <theirs> <recorded>",
# "<file>: FAIL action <id> (<type>): <the engine's reason>", or "<file>: ERROR ...".

require "zlib"
require "stringio"
require 'json'
require 'optparse'

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
ARGV[2..].each do |path|
  raw = File.read(path)
  raw = Zlib::GzipReader.new(StringIO.new(raw)).read if path.end_with?('.gz')
  data = JSON.parse(raw)
  begin
    game = Engine::Game.load(data, at_action: 0)
    failed = nil
    data['actions'].each do |action|
      game.process_to_action(action['id'])
      if game.exception
        failed = "action #{action['id']} (#{action['type']}): #{game.exception.message[0, 200]}"
        break
      end
    end
    if failed
      puts "#{File.basename(path)}: FAIL #{failed}"
    else
      res = game.result.map { |id, v| [id.to_s, v] }.to_h
      puts "#{File.basename(path)}: OK finished=#{game.finished} result_match=#{res == data["result"].transform_keys(&:to_s)} #{res} #{data["result"]}"
    end
  rescue StandardError => e
    puts "#{File.basename(path)}: ERROR #{e.class}: #{e.message[0, 200]}"
  end
end
