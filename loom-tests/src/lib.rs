//! Loom checks of Drowse (see tests/).
