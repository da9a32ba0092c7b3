import { runMain } from '@paddock/common';
import { main, USAGE } from '../main.js';

runMain(async () => main(process.argv.slice(2), process.env), USAGE);
