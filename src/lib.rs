pub mod core;
