//! The timed workloads of `compare`, under divan: per-benchmark statistics
//! (fastest, slowest, median, mean over many samples) for looking at one
//! workload closely. `ci/bench` does not use it; its table comes from
//! `compare`, which interleaves the two pools.
//!
//! ```text
//! cargo bench -p drowse --bench micro              # everything
//! cargo bench -p drowse --bench micro -- join_fib  # a filter, as divan takes
//! ```
//!
//! Each benchmark is generic over the pool (`types = [Drowse, Rayon]`), so
//! both pools run the same code; divan runs one after the other.

mod common;

use common::{Drowse, Node, Pool, Rayon, Started};
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

fn main() {
    common::exit_unless_std_world("micro");
    divan::main();
}

/// 1, 2, and every CPU when that is more.
fn thread_counts() -> Vec<usize> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1, 2];
    if cpus > 2 {
        counts.push(cpus);
    }
    counts
}

/// fib(25) with a join at every call, inside `install`; counted in joins
/// (121,392 per run, so the `install` round trip is about 1% of a run).
#[divan::bench(types = [Drowse, Rayon], args = [1, 2])]
fn join_fib<P: Pool>(bencher: Bencher, threads: usize) {
    const N: u32 = 25;
    let pool = Started::<P>::new(threads);
    bencher
        .counter(ItemsCount::new(common::joins_in_fib(N)))
        .bench_local(|| pool.pool().install(|| common::fib::<P>(black_box(N))));
    pool.finish();
}

/// The 1023-node tree summed with a join at every inner node, 100 sums per
/// `install` (one sum takes about as long as the `install` round trip);
/// counted in joins.
#[divan::bench(types = [Drowse, Rayon], args = thread_counts())]
fn tree1023<P: Pool>(bencher: Bencher, threads: usize) {
    const SUMS: u64 = 100;
    let tree = Node::tree(common::TREE_LEVELS);
    let pool = Started::<P>::new(threads);
    bencher
        .counter(ItemsCount::new(tree.inner_nodes() * SUMS))
        .bench_local(|| {
            pool.pool().install(|| {
                for _ in 0..SUMS {
                    black_box(common::tree_sum::<P>(black_box(&tree)));
                }
            })
        });
    pool.finish();
}

/// Divide-and-conquer sum of 10M u64 with a cutoff of 1024.
#[divan::bench(types = [Drowse, Rayon], args = thread_counts(), sample_count = 20)]
fn sum10m<P: Pool>(bencher: Bencher, threads: usize) {
    let data: Vec<u64> = (0..10_000_000).collect();
    let pool = Started::<P>::new(threads);
    bencher.bench_local(|| pool.pool().install(|| common::sum::<P>(black_box(&data))));
    pool.finish();
}

/// A scope with 100k spawns, from outside the pool; counted in spawns.
#[divan::bench(types = [Drowse, Rayon], args = thread_counts(), sample_count = 20)]
fn scope100k<P: Pool>(bencher: Bencher, threads: usize) {
    const SPAWNS: usize = 100_000;
    let pool = Started::<P>::new(threads);
    bencher
        .counter(ItemsCount::new(SPAWNS))
        .bench_local(|| common::scope_spawns(pool.pool(), SPAWNS));
    pool.finish();
}

/// 1M empty spawns from outside the pool, until all have run.
#[divan::bench(types = [Drowse, Rayon], args = thread_counts(), sample_count = 5, sample_size = 1)]
fn spawn_flood1m<P: Pool>(bencher: Bencher, threads: usize) {
    const SPAWNS: usize = 1_000_000;
    let pool = Started::<P>::new(threads);
    bencher
        .counter(ItemsCount::new(SPAWNS))
        .bench_local(|| common::spawn_flood(pool.pool(), SPAWNS));
    pool.finish();
}
