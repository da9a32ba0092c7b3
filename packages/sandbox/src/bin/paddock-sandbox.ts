import { runMain } from '@paddock/common';
import { USAGE } from '../cli/flags.js';
import { main } from '../main.js';

runMain(() => main(process.argv.slice(2), process.env), USAGE);
