module.exports = 139;
