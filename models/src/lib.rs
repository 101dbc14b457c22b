//! Scenarios written once and run by both checkers.
