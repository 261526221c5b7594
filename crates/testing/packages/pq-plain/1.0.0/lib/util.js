exports.util = () => 'util';
