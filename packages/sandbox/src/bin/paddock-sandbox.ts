import { runMain } from '@paddock/common';
import { USAGE } from '../cli/flags.js';
import { main } from '../main.js';
import { takeOwnEnvironment } from '../process/own-environment.js';

// First of all, before any command can start: the secrets leave what children can read.
runMain(async () => main(process.argv.slice(2), takeOwnEnvironment()), USAGE);
