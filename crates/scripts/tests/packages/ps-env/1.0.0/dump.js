const fs = require('fs');
const path = require('path');
const stage = process.argv[2];
fs.writeFileSync(path.join(process.cwd(), 'env-' + stage + '.json'), JSON.stringify({ cwd: process.cwd(), argv0: process.argv0, env: process.env }, null, 2));
fs.appendFileSync(path.join(process.env.INIT_CWD, 'order.log'), 'ps-env ' + stage + '\n');
