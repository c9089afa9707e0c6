// The order of a lane's specs (scripts/test-integration.js passes it as jest's --testSequencer):
// jest's own (last run's failures, then the slowest, then the largest files), except that the
// install spec goes first. Its `npm pack` builds the plugin, which the two-server and demo specs
// then reuse (demo/lib/plugin-build.ts skips a fresh build), and its tarball starts the oldest
// Medusa's check beside the lanes. On a fresh clone jest has no timings and ran the largest file
// first: the two-server spec built the plugin (about 40 s), the pack built it again, and the check
// started minutes later.
"use strict"
// jest's own sequencer, as jest resolves it (a dependency of jest, not of the repository).
const Sequencer = require(require.resolve("@jest/test-sequencer", { paths: [require.resolve("jest")] })).default

const FIRST = /[\\/]integration-tests[\\/]install[\\/]/

class IntegrationSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests)
    return [...sorted.filter((test) => FIRST.test(test.path)), ...sorted.filter((test) => !FIRST.test(test.path))]
  }
}

module.exports = IntegrationSequencer
