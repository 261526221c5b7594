mod fixtures;
mod pnpm_details;
mod unit;
