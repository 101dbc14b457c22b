//! A pool in every world. Pools hold facade atomics, locks and threads, which
//! under loom exist only inside a model, so these run in `crate::sync::model`
//! (once in std, every interleaving under loom, random schedules under
//! shuttle) and stay tiny. The heavy pool tests are std-only, in core/tests/.

use crate::ThreadPoolBuilder;

#[test]
fn one_worker_installs_and_shuts_down_at_rest() {
    crate::sync::model(|| {
        let pool = ThreadPoolBuilder::for_model(1).build().unwrap();
        assert_eq!(pool.install(|| 6 * 7), 42);
        let snapshot = pool.shutdown_and_snapshot();
        snapshot.check_at_rest().unwrap();
    });
}

#[test]
fn a_job_spawned_before_shutdown_still_runs() {
    use crate::sync::atomic::{AtomicBool, Ordering};
    use crate::sync::Arc;
    crate::sync::model(|| {
        let pool = ThreadPoolBuilder::for_model(1).build().unwrap();
        let ran = Arc::new(AtomicBool::new(false));
        let job_ran = Arc::clone(&ran);
        pool.spawn(move || job_ran.store(true, Ordering::Release));
        let snapshot = pool.shutdown_and_snapshot();
        assert!(ran.load(Ordering::Acquire), "the spawned job was lost");
        snapshot.check().unwrap();
    });
}
