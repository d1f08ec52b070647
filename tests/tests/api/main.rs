//! Black-box tests: the real app on a random port, a temporary data directory, real HTTP.
//! One integration-test binary so it links once.

mod smoke;
