module.exports = 163;
