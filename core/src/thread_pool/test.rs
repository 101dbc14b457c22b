use crate::ThreadPoolBuilder;

#[test]
fn install_returns_the_value() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    assert_eq!(pool.install(|| 6 * 7), 42);
    pool.shutdown_and_wait();
}
