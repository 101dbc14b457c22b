//! Binary relations on the (at most 64) events of one execution, as bit rows:
//! bit `j` of `rows[i]` says `i -> j`.

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rel {
    rows: Vec<u64>,
}

impl Rel {
    pub fn empty(n: usize) -> Rel {
        assert!(n <= 64, "litmus executions have at most 64 events");
        Rel { rows: vec![0; n] }
    }

    /// The identity restricted to the events where `keep` holds: `[A]`.
    pub fn set(n: usize, keep: impl Fn(usize) -> bool) -> Rel {
        let mut r = Rel::empty(n);
        for i in (0..n).filter(|&i| keep(i)) {
            r.add(i, i);
        }
        r
    }

    pub fn from_pairs(n: usize, pairs: impl IntoIterator<Item = (usize, usize)>) -> Rel {
        let mut r = Rel::empty(n);
        for (a, b) in pairs {
            r.add(a, b);
        }
        r
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&row| row == 0)
    }

    pub fn add(&mut self, a: usize, b: usize) {
        self.rows[a] |= 1 << b;
    }

    pub fn has(&self, a: usize, b: usize) -> bool {
        self.rows[a] & (1 << b) != 0
    }

    pub fn union(&self, other: &Rel) -> Rel {
        Rel {
            rows: self
                .rows
                .iter()
                .zip(&other.rows)
                .map(|(a, b)| a | b)
                .collect(),
        }
    }

    pub fn intersect(&self, other: &Rel) -> Rel {
        Rel {
            rows: self
                .rows
                .iter()
                .zip(&other.rows)
                .map(|(a, b)| a & b)
                .collect(),
        }
    }

    pub fn minus(&self, other: &Rel) -> Rel {
        Rel {
            rows: self
                .rows
                .iter()
                .zip(&other.rows)
                .map(|(a, b)| a & !b)
                .collect(),
        }
    }

    /// `self ; other`.
    pub fn seq(&self, other: &Rel) -> Rel {
        let mut out = Rel::empty(self.len());
        for (i, &row) in self.rows.iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.rows[i] |= other.rows[j];
            }
        }
        out
    }

    pub fn inverse(&self) -> Rel {
        let mut out = Rel::empty(self.len());
        for i in 0..self.len() {
            for j in 0..self.len() {
                if self.has(i, j) {
                    out.add(j, i);
                }
            }
        }
        out
    }

    /// `self?`: the reflexive closure.
    pub fn opt(&self) -> Rel {
        self.union(&Rel::set(self.len(), |_| true))
    }

    /// `self+`: the transitive closure (Warshall).
    pub fn plus(&self) -> Rel {
        let mut out = self.clone();
        for k in 0..self.len() {
            for i in 0..self.len() {
                if out.has(i, k) {
                    out.rows[i] |= out.rows[k];
                }
            }
        }
        out
    }

    pub fn is_irreflexive(&self) -> bool {
        (0..self.len()).all(|i| !self.has(i, i))
    }

    pub fn is_acyclic(&self) -> bool {
        self.plus().is_irreflexive()
    }
}

#[cfg(test)]
mod test {
    use super::Rel;

    #[test]
    fn closure_finds_a_cycle_and_only_a_cycle() {
        let chain = Rel::from_pairs(3, [(0, 1), (1, 2)]);
        assert!(chain.is_acyclic());
        assert!(chain.plus().has(0, 2));
        let cycle = chain.union(&Rel::from_pairs(3, [(2, 0)]));
        assert!(!cycle.is_acyclic());
    }

    #[test]
    fn sequence_composes() {
        let a = Rel::from_pairs(3, [(0, 1)]);
        let b = Rel::from_pairs(3, [(1, 2)]);
        assert_eq!(a.seq(&b), Rel::from_pairs(3, [(0, 2)]));
        assert!(b.seq(&a).is_empty());
    }
}
