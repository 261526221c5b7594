module.exports = "PqUpper@1.0.0";
