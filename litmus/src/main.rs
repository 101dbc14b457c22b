fn main() {
    for shape in drowse_litmus::shapes::all() {
        let t = std::time::Instant::now();
        let a = drowse_litmus::allowed(&shape.program);
        let bad = a.any(|o| shape.bad.holds(o));
        println!(
            "{:45} bad allowed: {:5} expect {:?} ({} candidates, {} consistent, {:?})",
            shape.name,
            bad,
            shape.expect,
            a.candidates,
            a.consistent,
            t.elapsed()
        );
    }
}
