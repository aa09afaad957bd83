// Discord's markdown, the part bots use: **bold**, *italics*, __underline__, ~~strike~~,
// `code`, ```blocks```, ||spoilers||, > quotes, # headings, -# subtext, lists, \escapes,
// <@id> mentions, <#id> channels, <t:unix:style> timestamps, <:name:id> emojis and links.
// Everything becomes DOM nodes with textContent: no user text is ever parsed as HTML.
"use strict";

const KMarkdown = (() => {
  const INLINE = new RegExp([
    String.raw`\\([^A-Za-z0-9\s])`,                      // 1 escape
    String.raw`\x60([^\x60]+)\x60`,                      // 2 code
    String.raw`\*\*([\s\S]+?)\*\*(?!\*)`,                // 3 bold
    String.raw`__([\s\S]+?)__(?!_)`,                     // 4 underline
    String.raw`~~([\s\S]+?)~~`,                          // 5 strike
    String.raw`\|\|([\s\S]+?)\|\|`,                      // 6 spoiler
    String.raw`\*(?!\s)([\s\S]+?)\*`,                    // 7 italics
    String.raw`\b_([^_]+?)_\b`,                          // 8 italics
    String.raw`<@!?(\d+)>`,                              // 9 user
    String.raw`<@&(\d+)>`,                               // 10 role
    String.raw`<#(\d+)>`,                                // 11 channel
    String.raw`<t:(-?\d+)(?::([tTdDfFR]))?>`,            // 12, 13 timestamp
    String.raw`<(a?):(\w{2,32}):(\d+)>`,                 // 14, 15, 16 emoji
    String.raw`\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)`,    // 17, 18 masked link
    String.raw`(https?:\/\/[^\s<]+[^\s<.,:;"')\]])`,     // 19 link
  ].join("|"), "g");

  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  function timeText(seconds, style) {
    const date = new Date(seconds * 1000);
    const fmt = (options) => new Intl.DateTimeFormat(undefined, options).format(date);
    switch (style) {
      case "t": return fmt({ timeStyle: "short" });
      case "T": return fmt({ timeStyle: "medium" });
      case "d": return fmt({ dateStyle: "short" });
      case "D": return fmt({ dateStyle: "long" });
      case "F": return fmt({ dateStyle: "full", timeStyle: "short" });
      case "R": return relative(seconds);
      default: return fmt({ dateStyle: "long", timeStyle: "short" });
    }
  }

  function relative(seconds) {
    const diff = seconds - Date.now() / 1000;
    const format = new Intl.RelativeTimeFormat("en", { numeric: "always" });
    const abs = Math.abs(diff);
    if (abs < 60) return format.format(Math.round(diff), "second");
    if (abs < 3600) return format.format(Math.round(diff / 60), "minute");
    if (abs < 86400) return format.format(Math.round(diff / 3600), "hour");
    return format.format(Math.round(diff / 86400), "day");
  }

  // live countdowns: every <t:…:R> on the page is redrawn each second
  setInterval(() => {
    for (const node of document.querySelectorAll(".timestamp[data-style='R']")) {
      node.textContent = relative(Number(node.dataset.ts));
    }
  }, 1000);

  const MESSAGE_LINK =
    /^https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/channels\/\d+\/(\d+)(?:\/(\d+))?$/;

  // a link to a channel or message of this server opens it here, as Discord's client does
  function link(url, text, ctx) {
    const inside = url.match(MESSAGE_LINK);
    const channel = inside && ctx.channels.get(inside[1]);
    if (channel && ctx.jump) {
      const node = el("a", "mention", `#${channel}` + (inside[2] ? " › message" : ""));
      node.href = `?channel=${encodeURIComponent(channel)}`;
      node.addEventListener("click", (event) => {
        event.preventDefault();
        ctx.jump(inside[1], inside[2]);
      });
      return node;
    }
    const node = el("a", null, text);
    node.href = url;
    node.target = "_blank";
    node.rel = "noopener noreferrer";
    return node;
  }

  function inline(text, parent, ctx) {
    let last = 0;
    for (const m of text.matchAll(INLINE)) {
      if (m.index > last) parent.append(text.slice(last, m.index));
      last = m.index + m[0].length;
      if (m[1] !== undefined) parent.append(m[1]);
      else if (m[2] !== undefined) parent.append(el("code", "inline-code", m[2]));
      else if (m[3] !== undefined) inline(m[3], parent.appendChild(el("strong")), ctx);
      else if (m[4] !== undefined) inline(m[4], parent.appendChild(el("u")), ctx);
      else if (m[5] !== undefined) inline(m[5], parent.appendChild(el("s")), ctx);
      else if (m[6] !== undefined) {
        const spoiler = parent.appendChild(el("span", "spoiler"));
        spoiler.addEventListener("click", () => spoiler.classList.add("revealed"));
        inline(m[6], spoiler, ctx);
      } else if (m[7] !== undefined) inline(m[7], parent.appendChild(el("em")), ctx);
      else if (m[8] !== undefined) inline(m[8], parent.appendChild(el("em")), ctx);
      else if (m[9] !== undefined) {
        const name = ctx.users.get(m[9]);
        const mention = el("span", "mention", "@" + (name || "unknown-user"));
        if (m[9] === ctx.me) mention.classList.add("me");
        parent.append(mention);
      } else if (m[10] !== undefined) parent.append(el("span", "mention", "@role"));
      else if (m[11] !== undefined) {
        parent.append(el("span", "mention", "#" + (ctx.channels.get(m[11]) || "unknown")));
      } else if (m[12] !== undefined) {
        const style = m[13] || "f";
        const stamp = el("span", "timestamp", timeText(Number(m[12]), style));
        stamp.dataset.ts = m[12];
        stamp.dataset.style = style;
        stamp.title = new Date(Number(m[12]) * 1000).toLocaleString();
        parent.append(stamp);
      } else if (m[16] !== undefined) {
        const img = el("img", "emoji");
        img.alt = `:${m[15]}:`;
        img.title = `:${m[15]}:`;
        img.src = `/emojis/${m[16]}`;
        img.addEventListener("error", () => img.replaceWith(`:${m[15]}:`));
        parent.append(img);
      } else if (m[17] !== undefined) parent.append(link(m[18], m[17], ctx));
      else if (m[19] !== undefined) parent.append(link(m[19], m[19], ctx));
    }
    if (last < text.length) parent.append(text.slice(last));
  }

  function render(text, ctx) {
    const root = document.createDocumentFragment();
    const blocks = text.split(/```(?:[a-z]*\n)?([\s\S]*?)```/);
    blocks.forEach((block, n) => {
      if (n % 2 === 1) {
        root.append(el("pre", "code-block", block));
        return;
      }
      let list = null;
      const lines = block.replace(/^\n|\n$/g, "").split("\n");
      if (block === "") return;
      for (const line of lines) {
        let m;
        if ((m = line.match(/^\s*[-*] (.*)$/))) {
          if (!list) list = root.appendChild(el("ul"));
          inline(m[1], list.appendChild(el("li")), ctx);
          continue;
        }
        list = null;
        let holder;
        if ((m = line.match(/^-# (.*)$/))) { holder = el("div", "subtext"); inline(m[1], holder, ctx); }
        else if ((m = line.match(/^(#{1,3}) (.*)$/))) {
          holder = el("div", "heading h" + m[1].length);
          inline(m[2], holder, ctx);
        } else if ((m = line.match(/^> ?(.*)$/))) {
          holder = el("blockquote");
          inline(m[1], holder, ctx);
        } else {
          holder = el("div", "line");
          if (line === "") holder.append("\u00a0");
          else inline(line, holder, ctx);
        }
        root.append(holder);
      }
    });
    return root;
  }

  return { render, inline, relative };
})();
