module.exports = {
	cjs: () => 'cjs'
};
