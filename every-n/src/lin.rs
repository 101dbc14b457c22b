//! Linear integer expressions and constraints over named variables: the
//! language the abstract model is written in, and what `smt` prints.

use std::collections::BTreeMap;
use std::ops::{Add, Neg, Sub};

/// `sum(coef * name) + constant`. A name is a state variable or a transition
/// parameter; `smt` decides which when it prints the expression.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lin {
    pub terms: BTreeMap<String, i64>,
    pub constant: i64,
}

/// The variable `name`.
pub fn var(name: &str) -> Lin {
    let mut terms = BTreeMap::new();
    terms.insert(name.to_string(), 1);
    Lin { terms, constant: 0 }
}

/// The constant `c`.
pub fn int(c: i64) -> Lin {
    Lin {
        terms: BTreeMap::new(),
        constant: c,
    }
}

/// The sum of the variables `names`.
pub fn sum<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Lin {
    names
        .into_iter()
        .fold(int(0), |acc, name| acc + var(name.as_ref()))
}

impl Lin {
    /// `k * self`.
    pub fn times(mut self, k: i64) -> Lin {
        for coef in self.terms.values_mut() {
            *coef *= k;
        }
        self.constant *= k;
        self.terms.retain(|_, coef| *coef != 0);
        self
    }

    /// The value under `env` (every name must be bound).
    pub fn eval(&self, env: &dyn Fn(&str) -> i64) -> i64 {
        self.terms
            .iter()
            .map(|(name, coef)| coef * env(name))
            .sum::<i64>()
            + self.constant
    }

    pub fn ge(self, other: impl Into<Lin>) -> Atom {
        Atom::Ge(self - other.into())
    }

    pub fn le(self, other: impl Into<Lin>) -> Atom {
        Atom::Ge(other.into() - self)
    }

    pub fn eq(self, other: impl Into<Lin>) -> Atom {
        Atom::Eq(self - other.into())
    }
}

impl From<i64> for Lin {
    fn from(c: i64) -> Lin {
        int(c)
    }
}

impl Add for Lin {
    type Output = Lin;
    fn add(mut self, other: Lin) -> Lin {
        for (name, coef) in other.terms {
            *self.terms.entry(name).or_insert(0) += coef;
        }
        self.terms.retain(|_, coef| *coef != 0);
        self.constant += other.constant;
        self
    }
}

impl Add<i64> for Lin {
    type Output = Lin;
    fn add(self, c: i64) -> Lin {
        self + int(c)
    }
}

impl Neg for Lin {
    type Output = Lin;
    fn neg(self) -> Lin {
        self.times(-1)
    }
}

impl Sub for Lin {
    type Output = Lin;
    fn sub(self, other: Lin) -> Lin {
        self + (-other)
    }
}

impl Sub<i64> for Lin {
    type Output = Lin;
    fn sub(self, c: i64) -> Lin {
        self + int(-c)
    }
}

/// A linear constraint: `lin >= 0` or `lin = 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    Ge(Lin),
    Eq(Lin),
}

impl Atom {
    pub fn holds(&self, env: &dyn Fn(&str) -> i64) -> bool {
        match self {
            Atom::Ge(lin) => lin.eval(env) >= 0,
            Atom::Eq(lin) => lin.eval(env) == 0,
        }
    }
}
