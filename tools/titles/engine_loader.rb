# frozen_string_literal: true

# Loads the 18xx.games engine's base from the extracted tree on $LOAD_PATH (ENGINE.md facts):
# a stand-in for the require_all gem, then the engine's common files. Required by dump.rb
# and judge.rb (development time only).

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
