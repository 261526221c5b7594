pub mod deploy;
pub mod fetch;
pub mod install;
pub mod settings;
pub mod store;
