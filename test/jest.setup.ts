// Property tests run 10,000 cases each; on a loaded 2-core CI machine one can pass jest's 5 s default.
jest.setTimeout(60_000)
