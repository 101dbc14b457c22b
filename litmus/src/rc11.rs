//! RC11's consistency axioms (Lahav, Vafeiadis, Kang, Hur, Dreyer:
//! "Repairing Sequential Consistency in C/C++11", PLDI 2017), with the
//! release sequence of C++20 (P0982R1 dropped the same-thread writes from
//! it). C++20 adopted RC11's semantics of `seq_cst` (P0668R5), so `psc` below
//! is the standard's. Every access of a litmus program is atomic, so the
//! race axiom (about non-atomics) has nothing to check.

use crate::program::{Loc, Mo};
use crate::relation::Rel;
use crate::unfold::{Event, Kind};

/// A candidate execution: events (initialisation writes first), the write
/// each read reads from, and the modification order of each location.
pub struct Execution<'a> {
    pub events: &'a [Event],
    /// `rf[r] = Some(w)`: read (or RMW) `r` reads from write `w`.
    pub rf: &'a [Option<usize>],
    /// Per location, its writes in modification order (initial write first).
    pub mo: &'a [(Loc, Vec<usize>)],
}

/// The axiom an execution breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    NoThinAir,
    Coherence,
    Atomicity,
    Sc,
}

/// The relations of one execution that the axioms are stated over.
pub struct Relations {
    pub sb: Rel,
    pub rf: Rel,
    pub mo: Rel,
    pub rb: Rel,
    pub hb: Rel,
    pub eco: Rel,
}

fn is_fence(e: &Event) -> bool {
    e.kind == Kind::Fence
}

impl Execution<'_> {
    fn n(&self) -> usize {
        self.events.len()
    }

    fn same_loc(&self) -> Rel {
        let n = self.n();
        let mut r = Rel::empty(n);
        for a in 0..n {
            for b in 0..n {
                if self.events[a].loc.is_some() && self.events[a].loc == self.events[b].loc {
                    r.add(a, b);
                }
            }
        }
        r
    }

    /// `sb`: program order within a thread; initialisation writes before
    /// every other event.
    fn sb(&self) -> Rel {
        let n = self.n();
        let mut r = Rel::empty(n);
        for a in 0..n {
            for b in a + 1..n {
                let (ta, tb) = (self.events[a].thread, self.events[b].thread);
                if (ta.is_none() && tb.is_some()) || (ta.is_some() && ta == tb) {
                    r.add(a, b);
                }
            }
        }
        r
    }

    pub fn relations(&self) -> Relations {
        let n = self.n();
        let ev = self.events;
        let sb = self.sb();
        let rf = Rel::from_pairs(
            n,
            self.rf
                .iter()
                .enumerate()
                .filter_map(|(r, w)| w.map(|w| (w, r))),
        );
        let mut mo = Rel::empty(n);
        for (_, order) in self.mo {
            for (i, &a) in order.iter().enumerate() {
                for &b in &order[i + 1..] {
                    mo.add(a, b);
                }
            }
        }
        // rb (RC11's "fr"): rf⁻¹ ; mo, minus the identity (an RMW reads from
        // its mo-predecessor, not from itself).
        let rb = rf.inverse().seq(&mo).minus(&Rel::set(n, |_| true));

        // Release sequence, C++20: rs = [W] ; (rf ; rmw)*.
        let rf_rmw = rf.seq(&Rel::set(n, |i| ev[i].kind == Kind::Rmw));
        let rs = Rel::set(n, |i| ev[i].writes()).seq(&rf_rmw.plus().opt());

        // sw = [E⊒rel] ; ([F] ; sb)? ; rs ; rf ; [R] ; (sb ; [F])? ; [E⊒acq]
        let rel = Rel::set(n, |i| ev[i].thread.is_some() && ev[i].mo.is_release());
        let acq = Rel::set(n, |i| ev[i].thread.is_some() && ev[i].mo.is_acquire());
        let fences = Rel::set(n, |i| is_fence(&ev[i]));
        let reads = Rel::set(n, |i| ev[i].reads());
        let sw = rel
            .seq(&fences.seq(&sb).opt())
            .seq(&rs)
            .seq(&rf)
            .seq(&reads)
            .seq(&sb.seq(&fences).opt())
            .seq(&acq);

        let hb = sb.union(&sw).plus();
        let eco = rf.union(&mo).union(&rb).plus();
        Relations {
            sb,
            rf,
            mo,
            rb,
            hb,
            eco,
        }
    }

    /// The first axiom the execution breaks, if any.
    pub fn check(&self) -> Result<(), Violation> {
        let n = self.n();
        let ev = self.events;
        let r = self.relations();

        // No-thin-air (RC11's "no-OOTA"): sb ∪ rf is acyclic.
        if !r.sb.union(&r.rf).is_acyclic() {
            return Err(Violation::NoThinAir);
        }
        // Coherence: hb ; eco? is irreflexive.
        if !r.hb.seq(&r.eco.opt()).is_irreflexive() {
            return Err(Violation::Coherence);
        }
        // Atomicity: rmw ∩ (rb ; mo) = ∅; an RMW event is its own rmw pair.
        let rmw = Rel::set(n, |i| ev[i].kind == Kind::Rmw);
        if !rmw.intersect(&r.rb.seq(&r.mo)).is_empty() {
            return Err(Violation::Atomicity);
        }
        // SC: psc = psc_base ∪ psc_F is acyclic.
        if !self.psc(&r).is_acyclic() {
            return Err(Violation::Sc);
        }
        Ok(())
    }

    /// RC11's partial SC relation.
    ///   scb = sb ∪ sb|≠loc ; hb ; sb|≠loc ∪ hb|loc ∪ mo ∪ rb
    ///   psc_base = ([E^sc] ∪ [F^sc] ; hb?) ; scb ; ([E^sc] ∪ hb? ; [F^sc])
    ///   psc_F = [F^sc] ; (hb ∪ hb ; eco ; hb) ; [F^sc]
    pub fn psc(&self, r: &Relations) -> Rel {
        let n = self.n();
        let ev = self.events;
        let same_loc = self.same_loc();
        let sb_other_loc = r.sb.minus(&same_loc);
        let scb =
            r.sb.union(&sb_other_loc.seq(&r.hb).seq(&sb_other_loc))
                .union(&r.hb.intersect(&same_loc))
                .union(&r.mo)
                .union(&r.rb);
        let e_sc = Rel::set(n, |i| ev[i].thread.is_some() && ev[i].mo == Mo::SeqCst);
        let f_sc = Rel::set(n, |i| is_fence(&ev[i]) && ev[i].mo == Mo::SeqCst);
        let hb_opt = r.hb.opt();
        let psc_base = e_sc
            .union(&f_sc.seq(&hb_opt))
            .seq(&scb)
            .seq(&e_sc.union(&hb_opt.seq(&f_sc)));
        let psc_f = f_sc
            .seq(&r.hb.union(&r.hb.seq(&r.eco).seq(&r.hb)))
            .seq(&f_sc);
        psc_base.union(&psc_f)
    }
}
