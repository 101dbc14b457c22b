//! Shuttle checks of Drowse (see tests/).
