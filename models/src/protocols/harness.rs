//! A small work-stealing pool over any [`SleepModel`], and the properties
//! written once over it.
//!
//! Each worker has a LIFO deque; threads outside the pool push into one
//! injector. A worker's search round pops its own deque, steals from the
//! others in index order, then takes from the injector. All primitives come
//! from the [`drowse::sync`] facade, so the same code runs in the std world,
//! under loom and under shuttle.
//!
//! Every scenario is one execution. A violated property panics; a missed
//! wake-up leaves every thread blocked, which loom and shuttle report as a
//! deadlock.

use super::{QueueView, Round, SleepModel, Stats, StatsSnapshot};
use drowse::sync::atomic::{AtomicUsize, Ordering};
use drowse::sync::deque::{Injector, Steal, Stealer, Worker};
use drowse::sync::{thread, Arc, Condvar, Mutex};
use std::fmt;

/// A job of the harness pool.
pub type Job<M> = Box<dyn FnOnce(&WorkerCtx<'_, M>) + Send>;

/// The size of a model scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelConfig {
    /// Worker threads.
    pub workers: usize,
    /// Jobs the scenario posts.
    pub jobs: usize,
    /// Width of the jobs event counter (`None`: the model's full width).
    pub jec_bits: Option<u32>,
}

impl ModelConfig {
    /// `workers` workers, one job, full JEC.
    pub const fn new(workers: usize) -> ModelConfig {
        ModelConfig {
            workers,
            jobs: 1,
            jec_bits: None,
        }
    }

    /// The same with `jobs` jobs.
    pub const fn jobs(self, jobs: usize) -> ModelConfig {
        ModelConfig { jobs, ..self }
    }

    /// The same with a JEC of `bits` bits.
    pub const fn jec_bits(self, bits: u32) -> ModelConfig {
        ModelConfig {
            jec_bits: Some(bits),
            ..self
        }
    }
}

/// `workers=2,jobs=1,jec=full`, as in the other suites' result lines.
impl fmt::Display for ModelConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "workers={},jobs={},jec=", self.workers, self.jobs)?;
        match self.jec_bits {
            Some(bits) => write!(f, "{bits}"),
            None => f.write_str("full"),
        }
    }
}

/// A count that threads can wait on (blocking, so that a job that never runs
/// shows as a deadlock rather than a spin).
#[derive(Default)]
pub struct Countdown {
    count: Mutex<usize>,
    changed: Condvar,
}

impl Countdown {
    /// Adds one and wakes every waiter.
    pub fn tick(&self) {
        *self.count.lock().unwrap() += 1;
        self.changed.notify_all();
    }

    /// Blocks until at least `target` ticks happened.
    pub fn wait_for(&self, target: usize) {
        let mut count = self.count.lock().unwrap();
        while *count < target {
            count = self.changed.wait(count).unwrap();
        }
    }

    /// The ticks so far.
    pub fn get(&self) -> usize {
        *self.count.lock().unwrap()
    }
}

/// The pool shared by its workers and the scenario's threads.
pub struct Pool<M: SleepModel> {
    /// The protocol under test.
    pub model: M,
    injector: Injector<Job<M>>,
    stealers: Vec<Stealer<Job<M>>>,
    terminate: Vec<M::Latch>,
    /// One extra latch per worker for scenarios that wait on a latch other
    /// than the terminate latch (see [`latch_wakes_owner`]).
    gates: Vec<M::Latch>,
    /// Wake statistics.
    pub stats: Stats,
}

/// What a running job sees: its pool and the worker running it.
pub struct WorkerCtx<'a, M: SleepModel> {
    /// The pool.
    pub pool: &'a Pool<M>,
    /// The index of the worker running the job.
    pub index: usize,
    deque: &'a Worker<Job<M>>,
}

impl<M: SleepModel> WorkerCtx<'_, M> {
    /// Pushes `job` onto this worker's own deque and tells the model.
    pub fn push(&self, job: Job<M>) {
        let was_empty = self.deque.is_empty();
        self.deque.push(job);
        self.pool.model.new_internal_jobs(self.index, 1, was_empty);
    }
}

/// The pool's queues as [`QueueView`] sees them.
struct Queues<'a, M: SleepModel> {
    pool: &'a Pool<M>,
}

impl<M: SleepModel> QueueView for Queues<'_, M> {
    fn has_injected_jobs(&self) -> bool {
        !self.pool.injector.is_empty()
    }

    fn has_internal_jobs(&self) -> bool {
        self.pool.stealers.iter().any(|stealer| !stealer.is_empty())
    }

    fn worker_has_jobs(&self, index: usize) -> bool {
        !self.pool.stealers[index].is_empty()
    }
}

/// A started pool: the shared part and the worker threads.
pub struct Running<M: SleepModel> {
    /// The shared part.
    pub pool: Arc<Pool<M>>,
    handles: Vec<thread::JoinHandle<()>>,
}

impl<M: SleepModel> Pool<M> {
    /// Starts a pool of `config.workers` workers. Worker `i` first waits on
    /// its gate latch if `gated` says so, then on its terminate latch.
    pub fn start(config: ModelConfig, gated: impl Fn(usize) -> bool) -> Running<M> {
        let model = M::new(config.workers, config.jec_bits);
        let deques: Vec<Worker<Job<M>>> = (0..config.workers).map(|_| Worker::new_lifo()).collect();
        let pool = Arc::new(Pool {
            injector: Injector::new(),
            stealers: deques.iter().map(Worker::stealer).collect(),
            terminate: (0..config.workers).map(|_| model.new_latch()).collect(),
            gates: (0..config.workers).map(|_| model.new_latch()).collect(),
            model,
            stats: Stats::default(),
        });
        let handles = deques
            .into_iter()
            .enumerate()
            .map(|(index, deque)| {
                let pool = Arc::clone(&pool);
                let gated = gated(index);
                thread::spawn(move || pool.main_loop(index, &deque, gated))
            })
            .collect();
        Running { pool, handles }
    }

    /// Pushes `job` into the injector from outside the pool and tells the
    /// model.
    pub fn inject(&self, job: Job<M>) {
        let was_empty = self.injector.is_empty();
        self.injector.push(job);
        self.model.new_injected_jobs(1, was_empty);
    }

    /// Sets worker `index`'s gate latch.
    pub fn open_gate(&self, index: usize) {
        self.model.set_latch(&self.gates[index], index);
    }

    fn main_loop(&self, index: usize, deque: &Worker<Job<M>>, gated: bool) {
        if gated {
            self.wait_until(index, deque, &self.gates[index]);
        }
        self.wait_until(index, deque, &self.terminate[index]);
    }

    fn find_work(&self, index: usize, deque: &Worker<Job<M>>) -> Option<(Job<M>, bool)> {
        if let Some(job) = deque.pop() {
            return Some((job, !deque.is_empty()));
        }
        let count = self.stealers.len();
        for offset in 1..count {
            let victim = &self.stealers[(index + offset) % count];
            loop {
                match victim.steal() {
                    Steal::Success(job) => return Some((job, !victim.is_empty())),
                    Steal::Empty => break,
                    Steal::Retry => thread::yield_now(),
                }
            }
        }
        loop {
            match self.injector.steal() {
                Steal::Success(job) => return Some((job, !self.injector.is_empty())),
                Steal::Empty => return None,
                Steal::Retry => thread::yield_now(),
            }
        }
    }

    /// Runs jobs (and sleeps through the model) until `latch` is set.
    fn wait_until(&self, index: usize, deque: &Worker<Job<M>>, latch: &M::Latch) {
        let ctx = WorkerCtx {
            pool: self,
            index,
            deque,
        };
        while !self.model.probe(latch) {
            if let Some((job, _)) = self.find_work(index, deque) {
                job(&ctx);
                continue;
            }
            let mut idle = self.model.start_looking(index);
            let mut just_woken = false;
            loop {
                if self.model.probe(latch) {
                    if just_woken {
                        self.stats.latch_wakeups.fetch_add(1, Ordering::SeqCst);
                    }
                    self.model.work_found(idle, false, &Queues { pool: self });
                    break;
                }
                if let Some((job, more_work_queued)) = self.find_work(index, deque) {
                    self.model
                        .work_found(idle, more_work_queued, &Queues { pool: self });
                    job(&ctx);
                    break;
                }
                if just_woken {
                    self.stats.useless_wakeups.fetch_add(1, Ordering::SeqCst);
                }
                let queues = Queues { pool: self };
                just_woken = self.model.no_work_found(&mut idle, latch, &queues) == Round::Slept;
                if just_woken {
                    self.stats.sleeps.fetch_add(1, Ordering::SeqCst);
                    self.stats.wakeups.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
    }
}

impl<M: SleepModel> Running<M> {
    /// Sets every terminate latch and joins every worker. Returns the wake
    /// statistics. (The resting state is checked only by
    /// [`terminate_at_rest`](Self::terminate_at_rest), so that a counter flaw
    /// shows under the counter property and not under every other.)
    pub fn terminate(self) -> StatsSnapshot {
        for (index, latch) in self.pool.terminate.iter().enumerate() {
            self.pool.model.set_latch(latch, index);
        }
        for handle in self.handles {
            handle.join().expect("workers do not panic");
        }
        self.pool.stats.read()
    }

    /// [`terminate`](Self::terminate), then checks the model's resting state
    /// ([`SleepModel::check_at_rest`]).
    pub fn terminate_at_rest(self) -> StatsSnapshot {
        let pool = Arc::clone(&self.pool);
        let stats = self.terminate();
        if let Err(message) = pool.model.check_at_rest() {
            panic!("{}: not at rest after termination: {message}", M::NAME);
        }
        stats
    }
}

/// Checks a snapshot of the model's counters, if it has any.
pub fn assert_consistent<M: SleepModel>(model: &M) {
    if let Some(snapshot) = model.snapshot() {
        if let Err(message) = snapshot.check() {
            panic!("{}: inconsistent counters: {message}", M::NAME);
        }
    }
}

/// The scenario that checks the property called `property` (as the
/// `ci/models.d` rows name them) and the scenario's name for result lines.
/// Each checker suite chooses the sizes; the mapping is the same for both.
///
/// # Panics
/// When `property` is not one of the five.
pub fn property_scenario<M: SleepModel>(property: &str) -> (&'static str, fn(ModelConfig)) {
    match property {
        "stranded_injected" => ("injected_jobs", injected_jobs::<M>),
        "latch_wake" => ("latch_wakes_owner", latch_wakes_owner::<M>),
        "internal_job" => ("internal_job_is_found", internal_job_is_found::<M>),
        "counters" => ("counters_consistent", counters_consistent::<M>),
        "termination" => ("termination", termination::<M>),
        other => panic!("no model property called {other:?}"),
    }
}

/// Property "no stranded injected job": `config.jobs` jobs are injected
/// from outside, one at a time; each must run while workers may sleep.
pub fn injected_jobs<M: SleepModel>(config: ModelConfig) {
    let running = Pool::<M>::start(config, |_| false);
    let done = Arc::new(Countdown::default());
    for _ in 0..config.jobs {
        let done = Arc::clone(&done);
        running.pool.inject(Box::new(move |_| done.tick()));
    }
    done.wait_for(config.jobs);
    running.terminate();
}

/// Property "no missed latch wake": worker 0 first waits on its gate latch
/// (and may fall asleep on it); an outside thread sets the gate, then the
/// terminate latches. Setting the terminate latch does not wake a worker
/// that sleeps on its gate, so if the gate's set misses the sleeping owner,
/// worker 0 never exits and the checker reports a deadlock.
pub fn latch_wakes_owner<M: SleepModel>(config: ModelConfig) {
    let running = Pool::<M>::start(config, |index| index == 0);
    running.pool.open_gate(0);
    running.terminate();
}

/// Property "internal-job guarantee": an injected job pushes a child onto
/// its worker's own deque and then blocks (on a condvar, not by searching)
/// until the child has run, so only another worker can run the child. The
/// other workers must not all sleep for good while the child waits.
pub fn internal_job_is_found<M: SleepModel>(config: ModelConfig) {
    let running = Pool::<M>::start(config, |_| false);
    let child_ran = Arc::new(Countdown::default());
    let parent_done = Arc::new(Countdown::default());
    {
        let (child_ran, parent_done) = (Arc::clone(&child_ran), Arc::clone(&parent_done));
        running.pool.inject(Box::new(move |ctx| {
            let child_ran_in_child = Arc::clone(&child_ran);
            ctx.push(Box::new(move |_| child_ran_in_child.tick()));
            child_ran.wait_for(1);
            parent_done.tick();
        }));
    }
    parent_done.wait_for(1);
    running.terminate();
}

/// Property "counter consistency": snapshots of the model's counters taken
/// from an outside observer while `config.jobs` injected jobs run, from
/// inside each job, and at rest after termination.
pub fn counters_consistent<M: SleepModel>(config: ModelConfig) {
    let running = Pool::<M>::start(config, |_| false);
    let done = Arc::new(Countdown::default());
    let observer = {
        let pool = Arc::clone(&running.pool);
        thread::spawn(move || assert_consistent(&pool.model))
    };
    for _ in 0..config.jobs {
        let done = Arc::clone(&done);
        running.pool.inject(Box::new(move |ctx| {
            assert_consistent(&ctx.pool.model);
            done.tick();
        }));
    }
    done.wait_for(config.jobs);
    observer.join().expect("the observer does not panic");
    assert_consistent(&running.pool.model);
    running.terminate_at_rest();
}

/// Property "termination": the pool is terminated while the injected jobs
/// may still be queued, running or done, with workers in any state; every
/// worker must exit. Jobs left in the queues are not run.
pub fn termination<M: SleepModel>(config: ModelConfig) {
    let running = Pool::<M>::start(config, |_| false);
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..config.jobs {
        let ran = Arc::clone(&ran);
        running.pool.inject(Box::new(move |_| {
            ran.fetch_add(1, Ordering::SeqCst);
        }));
    }
    running.terminate();
    assert!(
        ran.load(Ordering::SeqCst) <= config.jobs,
        "no job runs twice"
    );
}

/// The shuttle workload of the wake statistics: `config.jobs` jobs
/// injected one at a time into the pool, with the injecting thread yielding
/// `gap` times between two jobs so that workers have time to fall asleep.
/// Returns the statistics of this execution. It is [`sporadic_forks`]
/// without children.
pub fn sporadic_injection<M: SleepModel>(config: ModelConfig, gap: usize) -> StatsSnapshot {
    sporadic_forks::<M>(config, 0, gap)
}

/// The statistics workload with internal jobs: as [`sporadic_injection`],
/// but each injected parent pushes `children` children onto its own deque,
/// one push each (the first onto an empty deque, the next onto a non-empty
/// one), and returns without waiting for them, so its own worker or a thief
/// runs them. Nothing waits on a child, so a model that leaves a child
/// where a sleeper could have taken it still finishes (its worker pops it).
/// This is the workload in which rules about internal jobs (the RFC's
/// local-queue judgement) act at all. Returns the statistics of this
/// execution.
pub fn sporadic_forks<M: SleepModel>(
    config: ModelConfig,
    children: usize,
    gap: usize,
) -> StatsSnapshot {
    let running = Pool::<M>::start(config, |_| false);
    let done = Arc::new(Countdown::default());
    for job in 0..config.jobs {
        if job > 0 {
            for _ in 0..gap {
                thread::yield_now();
            }
        }
        let done = Arc::clone(&done);
        running.pool.inject(Box::new(move |ctx| {
            for _ in 0..children {
                let done = Arc::clone(&done);
                ctx.push(Box::new(move |_| done.tick()));
            }
            done.tick();
        }));
    }
    done.wait_for(config.jobs * (children + 1));
    running.terminate()
}
