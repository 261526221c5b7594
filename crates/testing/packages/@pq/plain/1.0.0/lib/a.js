exports.a = 1;
