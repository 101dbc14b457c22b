use super::*;

#[test]
fn fresh_counters_are_zero() {
    let counters = AtomicCounters::new(JecWidth::FULL);
    let now = counters.load();
    assert_eq!(now.sleeping_threads(), 0);
    assert_eq!(now.inactive_threads(), 0);
    assert_eq!(now.jobs_counter().value(), 0);
}
