use crate::ThreadPoolBuilder;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn ten_thousand_spawns_sum_into_an_atomic() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let sum = AtomicUsize::new(0);
    pool.scope(|s| {
        for i in 0..10_000 {
            let sum = &sum;
            s.spawn(move |_| {
                sum.fetch_add(i, Ordering::Relaxed);
            });
        }
    });
    assert_eq!(sum.into_inner(), (0..10_000).sum::<usize>());
}
