import { runMain } from '@paddock/common';
import { USAGE } from '../command-line.js';
import { main } from '../main.js';

runMain(() => main(process.argv.slice(2), process.env), USAGE);
