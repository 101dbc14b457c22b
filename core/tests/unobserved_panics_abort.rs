//! A panic that nobody can observe aborts the process, as
//! `ThreadPoolBuilder::panic_handler` documents. Each check runs this test
//! binary again as a child process (selected by an environment variable)
//! and looks at how the child ended.
#![cfg(not(any(loom, shuttle)))]
#![cfg(unix)]

use drowse::ThreadPoolBuilder;
use std::os::unix::process::ExitStatusExt;
use std::process::Command;
use std::thread;
use std::time::Duration;

const CHILD: &str = "DROWSE_UNOBSERVED_PANIC_CHILD";
/// How long a child waits for the abort before it exits normally.
const GRACE: Duration = Duration::from_secs(5);
const SIGABRT: i32 = 6;

/// In the parent: reruns `test` alone in a child and checks that the child
/// was killed by `SIGABRT` after printing Drowse's abort message. In the
/// child (the variable is set): returns true, and the test runs its body.
fn in_child_or_expect_abort(test: &str) -> bool {
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.signal(),
        Some(SIGABRT),
        "the child was aborted ({:?}); its stderr:\n{stderr}",
        output.status
    );
    assert!(
        stderr.contains("drowse: a panic escaped"),
        "Drowse said why it aborted; the child's stderr:\n{stderr}"
    );
    false
}

#[test]
fn a_spawned_panic_without_a_panic_handler_aborts() {
    if !in_child_or_expect_abort("a_spawned_panic_without_a_panic_handler_aborts") {
        return;
    }
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.spawn(|| panic!("nobody observes this panic"));
    thread::sleep(GRACE);
}

#[test]
fn a_panicking_panic_handler_aborts() {
    if !in_child_or_expect_abort("a_panicking_panic_handler_aborts") {
        return;
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(1)
        .panic_handler(|_| panic!("the panic handler panics"))
        .build()
        .unwrap();
    pool.spawn(|| panic!("a spawned job panics"));
    thread::sleep(GRACE);
}
