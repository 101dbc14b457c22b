use super::*;

#[test]
fn core_latch_handshake() {
    let latch = CoreLatch::new();
    assert!(latch.get_sleepy());
    assert!(latch.fall_asleep());
    // SAFETY: `latch` is live.
    assert!(
        unsafe { CoreLatch::set(&latch) },
        "setting a SLEEPING latch asks for a wake-up"
    );
    assert!(latch.probe());
    assert!(!latch.get_sleepy(), "a set latch never gets sleepy again");
}
