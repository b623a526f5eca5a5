// TypeScript: templates, generics over lines, decorators-free classes, enums.
// @kizu[ask]: a real scar above an interface
interface Options {
  name: string;
  tags?: readonly string[];
}

const banner: string = `==
// @kizu[ask]: not a scar, inside a typed template
==`;

enum Color {
  Red = 'red',
  Blue = 'blue',
}

export class Store<
  T extends Options,
> {
  private items: T[] = [];
  add(item: T): this {
    this.items.push(item);
    return this;
  }
}

type Pair = [
  string,
  number,
];

export const pair: Pair = ['a', 1];
export { banner, Color };
