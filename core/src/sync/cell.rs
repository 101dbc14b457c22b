//! `UnsafeCell` with loom's closure-based interface in every world, so that
//! loom can check that no two threads touch a cell's contents at once.

#[cfg(loom)]
pub use loom::cell::UnsafeCell;

/// A `std::cell::UnsafeCell` behind loom's `with`/`with_mut` interface.
#[cfg(not(loom))]
#[derive(Debug, Default)]
pub struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

#[cfg(not(loom))]
impl<T> UnsafeCell<T> {
    /// A cell holding `value`.
    pub const fn new(value: T) -> Self {
        UnsafeCell(std::cell::UnsafeCell::new(value))
    }

    /// Reads through a pointer to the contents.
    #[inline]
    pub fn with<R>(&self, read: impl FnOnce(*const T) -> R) -> R {
        read(self.0.get())
    }

    /// Writes through a pointer to the contents.
    #[inline]
    pub fn with_mut<R>(&self, write: impl FnOnce(*mut T) -> R) -> R {
        write(self.0.get())
    }

    /// The contents.
    pub fn into_inner(self) -> T {
        self.0.into_inner()
    }
}
