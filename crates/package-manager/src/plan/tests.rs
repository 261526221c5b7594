mod fixtures;
mod unit;
