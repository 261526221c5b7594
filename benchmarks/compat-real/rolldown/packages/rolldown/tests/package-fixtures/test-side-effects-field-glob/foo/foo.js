console.log('foo');
