import { h } from './dom.ts';

/**
 * A long list rendered a page at a time: the first {@link PagedList.page} items at once, the next
 * page when a person scrolls (or tabs) to its end or presses "Show more". A store of thousands of
 * notes then costs the page a hundred rows, not thousands, on every render, keystroke and layout.
 * The button sits after the list (never inside it), so the list holds only items.
 */
export class PagedList<T> {
  readonly #list: HTMLElement;
  readonly #item: (item: T) => HTMLElement;
  readonly #page: number;
  readonly #more: HTMLButtonElement;
  #items: T[] = [];
  /** Items shown; a render keeps as many as were shown (the scroll position stays). */
  #shown: number;

  /**
   * @param list the list element (`<ul>`, `<ol>`) that gets one child per shown item.
   * @param item builds an item's element (called only for shown items).
   * @param page items shown at first and added per step (default 100).
   */
  constructor(list: HTMLElement, item: (item: T) => HTMLElement, page = 100) {
    this.#list = list;
    this.#item = item;
    this.#page = page;
    this.#shown = page;
    this.#more = h('button', { type: 'button', class: 'show-more', hidden: true });
    this.#more.addEventListener('click', () => this.#showMore());
    list.after(this.#more);
    // The next page as the end of the list comes into view (scrolling with a wheel or keys).
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !this.#list.hidden) this.#showMore();
    }).observe(this.#more);
  }

  /** Replaces the items; shows as many as were shown before (at least a page). */
  render(items: T[]): void {
    this.#items = items;
    this.#list.replaceChildren(...items.slice(0, this.#shown).map(this.#item));
    this.#update();
  }

  /** Hides or shows the list (and its "Show more" button with it). */
  set hidden(hidden: boolean) {
    this.#list.hidden = hidden;
    this.#update();
  }

  #showMore(): void {
    const from = this.#list.childElementCount;
    if (from >= this.#items.length) return;
    this.#shown = from + this.#page;
    this.#list.append(...this.#items.slice(from, this.#shown).map(this.#item));
    this.#update();
  }

  #update(): void {
    const left = this.#items.length - this.#list.childElementCount;
    this.#more.hidden = this.#list.hidden || left <= 0;
    this.#more.textContent = `Show more (${left.toLocaleString()} not shown)`;
  }
}
