# frozen_string_literal: true

# Stand-in for the require_all gem (the 18xx.games engine calls `require 'require_all'`
# and then `require_rel`): dump.rb defines `require_rel` itself, so this file only has to
# exist on the load path.
