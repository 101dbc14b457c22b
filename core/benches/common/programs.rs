//! Workloads shaped like real rayon programs (the kinds rayon-demo, forte
//! and chili benchmark), written once over [`Pool`]: a branch-and-bound
//! search spawning into a scope around a locked priority queue, quicksort and
//! mergesort by `join`, a grid stencil run as many small jobs per step, an
//! n-body step, and a sparse spawn loop. Inputs come from a seeded generator,
//! so both pools solve the same instance in every run.

use super::peers::{insertion_sort, partition_around_last};
use super::Pool;
use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// A small deterministic generator (xorshift64*): the same inputs for both
/// pools and every run, without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

// ---------------------------------------------------------------------------
// Branch and bound (the shape of rayon-demo's tsp).

/// A travelling-salesman instance: cities at random points of a square, with
/// rounded Euclidean distances.
pub struct Cities {
    count: usize,
    distance: Vec<u32>,
    /// The shortest edge leaving each city: a lower bound on the edge a tour
    /// still has to take out of it.
    cheapest_exit: Vec<u32>,
}

impl Cities {
    pub fn random(count: usize, seed: u64) -> Cities {
        assert!((2..=32).contains(&count), "2 to 32 cities");
        let mut rng = Rng::new(seed);
        let points: Vec<(f64, f64)> = (0..count)
            .map(|_| (rng.unit() * 1000.0, rng.unit() * 1000.0))
            .collect();
        let mut distance = vec![0; count * count];
        for (a, &(xa, ya)) in points.iter().enumerate() {
            for (b, &(xb, yb)) in points.iter().enumerate() {
                distance[a * count + b] = ((xa - xb).hypot(ya - yb)).round() as u32;
            }
        }
        let cheapest_exit = (0..count)
            .map(|a| {
                (0..count)
                    .filter(|&b| b != a)
                    .map(|b| distance[a * count + b])
                    .min()
                    .unwrap()
            })
            .collect();
        Cities {
            count,
            distance,
            cheapest_exit,
        }
    }

    fn distance(&self, a: usize, b: usize) -> u32 {
        self.distance[a * self.count + b]
    }
}

/// A tour prefix starting at city 0.
#[derive(Clone)]
struct Prefix {
    /// Bit `c` set: city `c` is on the prefix.
    visited: u32,
    last: usize,
    cities_on: usize,
    length: u32,
    /// `length` plus the cheapest exit of `last` and of every unvisited
    /// city: no completion of the prefix is shorter.
    bound: u32,
}

impl Prefix {
    fn root(cities: &Cities) -> Prefix {
        let mut root = Prefix {
            visited: 1,
            last: 0,
            cities_on: 1,
            length: 0,
            bound: 0,
        };
        root.bound = root.lower_bound(cities);
        root
    }

    fn lower_bound(&self, cities: &Cities) -> u32 {
        if self.cities_on == cities.count {
            return self.length + cities.distance(self.last, 0);
        }
        let unvisited: u32 = (0..cities.count)
            .filter(|&c| self.visited & (1 << c) == 0)
            .map(|c| cities.cheapest_exit[c])
            .sum();
        self.length + cities.cheapest_exit[self.last] + unvisited
    }

    fn extended(&self, cities: &Cities, next: usize) -> Prefix {
        let mut child = Prefix {
            visited: self.visited | 1 << next,
            last: next,
            cities_on: self.cities_on + 1,
            length: self.length + cities.distance(self.last, next),
            bound: 0,
        };
        child.bound = child.lower_bound(cities);
        child
    }
}

/// Queue order: the smallest bound first, then the longer prefix.
struct Queued(Prefix);

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == CmpOrdering::Equal
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> CmpOrdering {
        // BinaryHeap pops the greatest: reverse the bound.
        other
            .0
            .bound
            .cmp(&self.0.bound)
            .then(self.0.cities_on.cmp(&other.0.cities_on))
    }
}

/// Prefixes with this many cities still to place or fewer are finished by a
/// serial depth-first search inside their job, as rayon-demo's tsp does
/// below its threshold.
pub const TSP_SERIAL_REMAINING: usize = 7;

/// The shared state of one search: the priority queue of open prefixes and
/// the best complete tour so far.
struct Search<'a> {
    cities: &'a Cities,
    open: Mutex<BinaryHeap<Queued>>,
    best: AtomicU32,
    /// Prefixes examined, in jobs and in their serial searches: how much of
    /// the tree this execution explored, which depends on how early good
    /// tours were found, so on the schedule.
    nodes: AtomicUsize,
}

impl Search<'_> {
    /// One job: takes the most promising open prefix and either finishes it
    /// serially or queues its children; returns how many it queued (one new
    /// job each).
    fn step(&self) -> usize {
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let Some(Queued(prefix)) = self.open.lock().unwrap().pop() else {
            return 0;
        };
        if prefix.bound >= self.best.load(Ordering::Relaxed) {
            return 0;
        }
        if self.cities.count - prefix.cities_on <= TSP_SERIAL_REMAINING {
            let mut best = self.best.load(Ordering::Relaxed);
            let mut nodes = 0;
            depth_first(self.cities, &prefix, &mut best, &mut nodes);
            self.best.fetch_min(best, Ordering::Relaxed);
            self.nodes.fetch_add(nodes, Ordering::Relaxed);
            return 0;
        }
        let best = self.best.load(Ordering::Relaxed);
        let children: Vec<Prefix> = (0..self.cities.count)
            .filter(|&c| prefix.visited & (1 << c) == 0)
            .map(|c| prefix.extended(self.cities, c))
            .filter(|child| child.bound < best)
            .collect();
        let queued = children.len();
        self.open
            .lock()
            .unwrap()
            .extend(children.into_iter().map(Queued));
        queued
    }
}

fn depth_first(cities: &Cities, prefix: &Prefix, best: &mut u32, nodes: &mut usize) {
    *nodes += 1;
    if prefix.bound >= *best {
        return;
    }
    if prefix.cities_on == cities.count {
        *best = prefix.bound; // the bound of a full tour is its length
        return;
    }
    for next in 0..cities.count {
        if prefix.visited & (1 << next) == 0 {
            depth_first(cities, &prefix.extended(cities, next), best, nodes);
        }
    }
}

/// The length of the shortest tour, by branch and bound: a scope whose jobs
/// each take one prefix from the shared queue and spawn one job per child
/// they queue. Also returns how many prefixes it examined.
pub fn tsp<P: Pool>(pool: &P, cities: &Cities) -> (u32, usize) {
    let search = Search {
        cities,
        open: Mutex::new(BinaryHeap::from([Queued(Prefix::root(cities))])),
        best: AtomicU32::new(u32::MAX),
        nodes: AtomicUsize::new(0),
    };
    pool.scope_spawn_more(1, &|| search.step());
    (
        search.best.load(Ordering::Relaxed),
        search.nodes.load(Ordering::Relaxed),
    )
}

/// The same search on this thread alone (to check results).
pub fn tsp_serial(cities: &Cities) -> u32 {
    let mut best = u32::MAX;
    depth_first(cities, &Prefix::root(cities), &mut best, &mut 0);
    best
}

// ---------------------------------------------------------------------------
// Sorting by join.

/// Below this length a piece is sorted without further joins.
pub const SORT_CUTOFF: usize = 2048;

/// `len` pseudo-random numbers.
pub fn random_numbers(len: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..len).map(|_| rng.next_u64() as u32).collect()
}

/// Moves a median-of-three pivot to the end, partitions around it (Lomuto),
/// and returns the pivot's final index.
fn partition(v: &mut [u32]) -> usize {
    let last = v.len() - 1;
    let mid = v.len() / 2;
    if v[mid] < v[0] {
        v.swap(mid, 0);
    }
    if v[last] < v[0] {
        v.swap(last, 0);
    }
    if v[mid] < v[last] {
        v.swap(mid, last);
    }
    partition_around_last(v)
}

fn quicksort_serial(v: &mut [u32]) {
    if v.len() <= 16 {
        insertion_sort(v);
        return;
    }
    let pivot = partition(v);
    let (low, high) = v.split_at_mut(pivot);
    quicksort_serial(low);
    quicksort_serial(&mut high[1..]);
}

/// Quicksort with the two sides of every partition joined, down to
/// [`SORT_CUTOFF`].
pub fn quicksort<P: Pool>(v: &mut [u32]) {
    if v.len() <= SORT_CUTOFF {
        quicksort_serial(v);
        return;
    }
    let pivot = partition(v);
    let (low, high) = v.split_at_mut(pivot);
    P::join(|| quicksort::<P>(low), || quicksort::<P>(&mut high[1..]));
}

/// Mergesort: halves sorted in a join, then merged by a join-split merge
/// into `scratch` (as long as `v`) and copied back.
pub fn mergesort<P: Pool>(v: &mut [u32], scratch: &mut [u32]) {
    if v.len() <= SORT_CUTOFF {
        v.sort_unstable();
        return;
    }
    let mid = v.len() / 2;
    {
        let (left, right) = v.split_at_mut(mid);
        let (scratch_left, scratch_right) = scratch.split_at_mut(mid);
        P::join(
            || mergesort::<P>(left, scratch_left),
            || mergesort::<P>(right, scratch_right),
        );
    }
    let (left, right) = v.split_at(mid);
    merge::<P>(left, right, scratch);
    v.copy_from_slice(scratch);
}

/// Merges two sorted runs into `out`: the longer run is cut in half, the
/// other at the matching rank, and the two halves merged in a join.
fn merge<P: Pool>(a: &[u32], b: &[u32], out: &mut [u32]) {
    if a.len() + b.len() <= SORT_CUTOFF {
        merge_serial(a, b, out);
        return;
    }
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let cut_a = a.len() / 2;
    let cut_b = b.partition_point(|&x| x < a[cut_a]);
    let (out_low, out_high) = out.split_at_mut(cut_a + cut_b);
    P::join(
        || merge::<P>(&a[..cut_a], &b[..cut_b], out_low),
        || merge::<P>(&a[cut_a..], &b[cut_b..], out_high),
    );
}

fn merge_serial(a: &[u32], b: &[u32], out: &mut [u32]) {
    let (mut i, mut j) = (0, 0);
    for slot in out.iter_mut() {
        if j == b.len() || (i < a.len() && a[i] <= b[j]) {
            *slot = a[i];
            i += 1;
        } else {
            *slot = b[j];
            j += 1;
        }
    }
}

// ---------------------------------------------------------------------------
// A grid stencil (the shape of rayon-demo's life).

/// Rows per job of a stencil step: a 512-row grid is 256 jobs per step.
pub const LIFE_ROWS_PER_JOB: usize = 2;

/// A Game of Life grid on a torus, one byte per cell (0 or 1).
pub struct Grid {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<u8>,
}

impl Grid {
    pub fn random(width: usize, height: usize, seed: u64) -> Grid {
        let mut rng = Rng::new(seed);
        let cells = (0..width * height)
            .map(|_| u8::from(rng.next_u64() % 4 == 0))
            .collect();
        Grid {
            width,
            height,
            cells,
        }
    }

    pub fn alive(&self) -> usize {
        self.cells.iter().map(|&c| usize::from(c)).sum()
    }
}

fn life_rows(grid: &Grid, first_row: usize, out: &mut [u8]) {
    let (w, h) = (grid.width, grid.height);
    for (offset, row_out) in out.chunks_mut(w).enumerate() {
        let y = first_row + offset;
        let rows = [(y + h - 1) % h, y, (y + 1) % h];
        for (x, cell) in row_out.iter_mut().enumerate() {
            let columns = [(x + w - 1) % w, x, (x + 1) % w];
            let mut neighbours = 0;
            for &r in &rows {
                for &c in &columns {
                    neighbours += grid.cells[r * w + c];
                }
            }
            let me = grid.cells[y * w + x];
            neighbours -= me;
            *cell = u8::from(neighbours == 3 || (me == 1 && neighbours == 2));
        }
    }
}

/// Computes the next generation of `grid` into `out` (the same size), split
/// by joins down to [`LIFE_ROWS_PER_JOB`] rows per job.
pub fn life_step<P: Pool>(grid: &Grid, first_row: usize, out: &mut [u8]) {
    let rows = out.len() / grid.width;
    if rows <= LIFE_ROWS_PER_JOB {
        life_rows(grid, first_row, out);
        return;
    }
    let half = rows / 2;
    let (low, high) = out.split_at_mut(half * grid.width);
    P::join(
        || life_step::<P>(grid, first_row, low),
        || life_step::<P>(grid, first_row + half, high),
    );
}

/// Runs `generations` steps, each one entered from the calling (outside)
/// thread through `install`, as a program calling a parallel iterator per
/// generation does. Returns the live cells at the end.
pub fn life<P: Pool>(pool: &P, grid: &mut Grid, generations: usize) -> usize {
    let mut next = vec![0; grid.cells.len()];
    for _ in 0..generations {
        pool.install(|| life_step::<P>(grid, 0, &mut next));
        std::mem::swap(&mut grid.cells, &mut next);
    }
    grid.alive()
}

// ---------------------------------------------------------------------------
// An n-body step (the shape of rayon-demo's nbody).

/// Bodies per job of the force computation.
pub const NBODY_BODIES_PER_JOB: usize = 16;

#[derive(Clone, Copy, Default)]
pub struct Body {
    position: [f64; 3],
    velocity: [f64; 3],
    mass: f64,
}

pub fn random_bodies(count: usize, seed: u64) -> Vec<Body> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| Body {
            position: [rng.unit(), rng.unit(), rng.unit()],
            velocity: [0.0; 3],
            mass: 0.5 + rng.unit(),
        })
        .collect()
}

fn accelerations(bodies: &[Body], first: usize, out: &mut [[f64; 3]]) {
    const SOFTENING: f64 = 1e-3;
    for (offset, acceleration) in out.iter_mut().enumerate() {
        let me = &bodies[first + offset];
        let mut sum = [0.0; 3];
        for other in bodies {
            let d = [
                other.position[0] - me.position[0],
                other.position[1] - me.position[1],
                other.position[2] - me.position[2],
            ];
            let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + SOFTENING;
            let scale = other.mass / (r2 * r2.sqrt());
            for (total, component) in sum.iter_mut().zip(d) {
                *total += component * scale;
            }
        }
        *acceleration = sum;
    }
}

fn accelerations_joined<P: Pool>(bodies: &[Body], first: usize, out: &mut [[f64; 3]]) {
    if out.len() <= NBODY_BODIES_PER_JOB {
        accelerations(bodies, first, out);
        return;
    }
    let half = out.len() / 2;
    let (low, high) = out.split_at_mut(half);
    P::join(
        || accelerations_joined::<P>(bodies, first, low),
        || accelerations_joined::<P>(bodies, first + half, high),
    );
}

/// `steps` time steps, each entered from the calling thread through
/// `install`: the forces on all bodies in parallel, then a serial update.
/// Returns a checksum of the final positions.
pub fn nbody<P: Pool>(pool: &P, bodies: &mut [Body], steps: usize) -> f64 {
    const DT: f64 = 1e-4;
    let mut acceleration = vec![[0.0; 3]; bodies.len()];
    for _ in 0..steps {
        pool.install(|| accelerations_joined::<P>(bodies, 0, &mut acceleration));
        for (body, a) in bodies.iter_mut().zip(&acceleration) {
            for ((velocity, position), a) in body.velocity.iter_mut().zip(&mut body.position).zip(a)
            {
                *velocity += a * DT;
                *position += *velocity * DT;
            }
        }
    }
    bodies.iter().map(|b| b.position.iter().sum::<f64>()).sum()
}

// ---------------------------------------------------------------------------
// Sparse spawns (rayon#642's noop).

/// Sleeps `period`, then spawns an empty job, `count` times: a program that
/// uses its pool now and then, whose cost is the pool's CPU in between.
pub fn noop<P: Pool>(pool: &P, period: Duration, count: usize) {
    for _ in 0..count {
        std::thread::sleep(period);
        pool.spawn(|| {});
    }
}
