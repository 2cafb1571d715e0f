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

# The require_all gem's require_rel: every .rb file under the given paths (relative to the
# calling file), retrying the files that raise NameError until a pass makes no progress.
module Kernel
  def require_rel(*paths)
    base = File.dirname(caller_locations(1, 1).first.absolute_path)
    files = paths.flatten.flat_map do |p|
      full = File.expand_path(p, base)
      if File.directory?(full)
        Dir.glob(File.join(full, '**', '*.rb')).sort
      else
        [full.end_with?('.rb') ? full : "#{full}.rb"]
      end
    end
    pending = files
    loop do
      failed = pending.reject do |f|
        require f
        true
      rescue NameError
        false
      end
      return true if failed.empty?
      raise LoadError, "require_rel: no progress with #{failed.first}" if failed.size == pending.size

      pending = failed
    end
  end
end

%w[engine/debug engine/deep_freeze engine/jaro_winkler engine/logger engine/game engine/game/base].each do |f|
  require f
end
LOGGER.reopen($stderr) # the engine logs to stdout, where the dump goes
Engine::Logger.set_level(Logger::WARN)
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
