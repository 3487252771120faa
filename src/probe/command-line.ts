/**
 * Splits a command given as one string (`--stdio "node server.js --flag"`) into program and arguments,
 * the way a POSIX shell splits words: whitespace separates, single quotes keep everything, double quotes
 * keep everything but `\"` and `\\`, a backslash escapes the next character. Nothing else a shell does —
 * no variables, globs, pipes or redirections — so the probe runs exactly the program named, without a shell.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) throw new Error('the command has an unclosed single quote');
      word += command.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (char === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === '\\' && (command[j + 1] === '"' || command[j + 1] === '\\')) j++;
        word += command[j];
      }
      if (j >= command.length) throw new Error('the command has an unclosed double quote');
      i = j;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new Error('the command is empty');
  return words;
}
