/// The series named in the outside-a-model panic are the ones
/// core/Cargo.toml asks for.
#[test]
fn checker_series_match_the_manifest() {
    let manifest = include_str!("../../Cargo.toml");
    for (checker, series) in [
        ("loom", super::LOOM_SERIES),
        ("shuttle", super::SHUTTLE_SERIES),
    ] {
        let table = format!("[dependencies.{checker}]\nversion = \"{series}.");
        assert!(
            manifest.contains(&table),
            "core/Cargo.toml has no `{table}...`: update {checker}'s series in core/src/sync"
        );
    }
}

/// Under a checker, a call into Drowse outside a model panics with the
/// facade's message, which names the flag, the checker's version and
/// where the call must run (a plain panic: no model runs, so loom does
/// not abort). The std world has no model to be outside of.
#[test]
#[cfg_attr(
    not(any(loom, shuttle)),
    ignore = "only the checker worlds have models"
)]
fn outside_a_model_the_panic_names_the_checker_and_its_version() {
    let payload = std::panic::catch_unwind(|| crate::join(|| 1, || 2))
        .expect_err("a checker build used outside a model panics");
    let message = payload
        .downcast_ref::<String>()
        .expect("the facade's panic carries a formatted message");
    let world = super::WORLD;
    let (series, entry) = if world == "loom" {
        (super::LOOM_SERIES, "`loom::model`")
    } else {
        (super::SHUTTLE_SERIES, "`shuttle::check_*`")
    };
    for part in [
        format!("built with `--cfg {world}` against {world} {series}"),
        format!("outside a {world} {series} model"),
        entry.to_owned(),
        "Doctests run outside any model".to_owned(),
    ] {
        assert!(message.contains(&part), "{message:?} does not say {part:?}");
    }
}

#[test]
fn random_seeds_differ_in_std_and_are_fixed_under_the_checkers() {
    let (first, second) = (super::random_seed(), super::random_seed());
    if super::IS_CHECKER {
        assert_eq!((first, second), (0, 0));
    } else {
        assert_ne!(first, second);
    }
}
