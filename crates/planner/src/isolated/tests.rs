mod fixtures;
mod pnpm_details;
mod unit;

use crate::test_support::{host, url};
