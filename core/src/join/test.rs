use crate::ThreadPoolBuilder;

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = crate::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn fib_sequential(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib_sequential(n - 1) + fib_sequential(n - 2)
    }
}

#[test]
fn join_recursive_fib_30_matches_sequential() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    assert_eq!(pool.install(|| fib(30)), fib_sequential(30));
}
