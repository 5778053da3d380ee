/// The tests of the three ideas, each post's "as written" test included: what a learner runs
/// first, with `swift test --disable-xctest --filter Ideas` (their ids all hold `Ideas`).
enum Ideas {}
