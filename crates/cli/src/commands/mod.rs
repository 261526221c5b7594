pub mod deploy;
pub mod edit;
pub mod fetch;
pub mod install;
pub mod settings;
pub mod store;
