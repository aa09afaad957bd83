// The playground page: one server, its channels, and the person you play as. Messages arrive
// as server-sent events; every action (a command, a click, a choice) is one request that the
// playground sends to the stand-in Discord as that person's client would.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const state = {
    world: null,
    me: null,          // user id
    channel: null,     // channel id
    messages: new Map(),
    jumpTo: null,      // a message to show once its channel is drawn
    dismissed: new Set(),
    source: null,
    suggestions: { mode: null, items: [], active: -1, moved: false },
  };
  const names = { users: new Map(), channels: new Map() };

  // -- small helpers ------------------------------------------------------------------------

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ as: state.me, ...body }),
    });
    let data = {};
    try { data = await response.json(); } catch { /* an empty or broken answer */ }
    if (!response.ok || data.ok === false) {
      throw new Error(data.error || `The playground answered ${response.status}`);
    }
    return data;
  }

  const byId = (a, b) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);

  function colourOf(id) {
    const palette = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#00a8fc"];
    let sum = 0;
    for (const ch of id) sum = (sum * 31 + ch.charCodeAt(0)) % 9973;
    return palette[sum % palette.length];
  }

  function avatar(author) {
    const node = el("span", "avatar", author.bot ? "K" : (author.name || "?")[0].toUpperCase());
    node.style.background = author.bot ? "#5865f2" : colourOf(author.id);
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function context() {
    return { users: names.users, channels: names.channels, me: state.me, jump };
  }

  function markdown(text) {
    return KMarkdown.render(text, context());
  }

  function inlineMarkdown(text, parent) {
    KMarkdown.inline(text, parent, context());
    return parent;
  }

  // a message link: open its channel and show the message
  function jump(channelId, messageId) {
    state.jumpTo = messageId || null;
    if (channelId === state.channel) showJump();
    else openChannel(channelId);
  }

  function showJump() {
    const node = state.jumpTo && document.querySelector(`.message[data-id="${state.jumpTo}"]`);
    state.jumpTo = null;
    if (!node) return;
    node.scrollIntoView({ block: "center" });
    node.classList.add("flash");
  }

  function timeOf(iso) {
    const date = new Date(iso);
    const today = new Date().toDateString() === date.toDateString();
    const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return today ? `Today at ${time}` : `${date.toLocaleDateString()} ${time}`;
  }

  // -- the URL: ?as=anna&channel=general ------------------------------------------------------

  function fromUrl() {
    const params = new URLSearchParams(location.search);
    const who = (params.get("as") || "").toLowerCase();
    const user = state.world.users.find((u) => u.name.toLowerCase() === who || u.id === who);
    const where = (params.get("channel") || "").toLowerCase();
    const channel = state.world.channels.find((c) => c.name === where || c.id === where);
    return { user, channel: channel || state.world.channels[0] };
  }

  function toUrl() {
    const me = state.world.users.find((u) => u.id === state.me);
    const channel = names.channels.get(state.channel);
    const params = new URLSearchParams({ as: me.name.toLowerCase(), channel });
    history.replaceState(null, "", `?${params}`);
    document.title = `#${channel} · ${me.name} · kortbord playground`;
    $("new-tab").href = `/?channel=${encodeURIComponent(channel)}`;
  }

  // -- the sidebar ----------------------------------------------------------------------------

  function drawSidebar() {
    $("guild-name").textContent = state.world.guild.name;
    const list = $("channels");
    list.replaceChildren();
    for (const channel of state.world.channels) {
      const item = el("li");
      const link = el("a", "channel");
      link.href = `?channel=${encodeURIComponent(channel.name)}`;
      link.dataset.channel = channel.id;
      const hash = channel.voice ? el("span", "hash voice") : el("span", "hash", "#");
      link.append(hash, el("span", "name", channel.name), el("span", "badge"));
      link.addEventListener("click", (event) => {
        event.preventDefault();
        openChannel(channel.id);
        document.body.classList.remove("menu-open");
      });
      item.append(link);
      list.append(item);
    }
    const select = $("me-select");
    select.replaceChildren();
    for (const user of state.world.users) {
      const option = el("option", null, user.name + (user.moderator ? " (moderator)" : ""));
      option.value = user.id;
      select.append(option);
    }
    select.addEventListener("change", () => become(select.value));
  }

  function markChannels() {
    for (const link of document.querySelectorAll("#channels .channel")) {
      link.classList.toggle("active", link.dataset.channel === state.channel);
      if (link.dataset.channel === state.channel) {
        link.classList.remove("unread");
        link.querySelector(".badge").textContent = "";
      }
    }
  }

  function noteActivity(channelId, mention) {
    const link = document.querySelector(`#channels .channel[data-channel="${channelId}"]`);
    if (!link || channelId === state.channel) return;
    link.classList.add("unread");
    if (mention) {
      const badge = link.querySelector(".badge");
      badge.textContent = String(Number(badge.textContent || 0) + 1);
    }
  }

  // -- who you are, and where -----------------------------------------------------------------

  function become(userId) {
    state.me = userId;
    state.dismissed.clear();
    const me = state.world.users.find((u) => u.id === userId);
    $("me-select").value = userId;
    $("me-avatar").replaceWith(Object.assign(avatar(me), { id: "me-avatar" }));
    for (const link of document.querySelectorAll("#channels .channel")) {
      link.classList.remove("unread");
      link.querySelector(".badge").textContent = "";
    }
    openChannel(state.channel);
  }

  function openChannel(channelId) {
    state.channel = channelId;
    const name = names.channels.get(channelId);
    $("channel-name").textContent = name;
    $("input").placeholder = `Message #${name} — type / for commands`;
    // a voice channel's Activities open in the fake Discord client, as the person there
    const channel = state.world.channels.find((c) => c.id === channelId);
    const activity = $("activity-link");
    activity.hidden = !(channel && channel.voice);
    if (channel && channel.voice) {
      const guild = state.world.guild.id;
      activity.href = `${state.world.client_origin}/channels/${guild}/${channel.id}?user=${state.me}`;
    }
    markChannels();
    toUrl();
    connect();
  }

  function connect() {
    if (state.source) state.source.close();
    state.messages.clear();
    drawAll();
    const query = new URLSearchParams({ as: state.me, channel: state.channel });
    const source = new EventSource(`/api/events?${query}`);
    state.source = source;
    source.addEventListener("reset", (event) => {
      state.messages.clear();
      for (const message of JSON.parse(event.data).messages) state.messages.set(message.id, message);
      drawAll();
      showJump();
    });
    source.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      state.messages.set(message.id, message);
      drawOne(message);
    });
    source.addEventListener("delete", (event) => {
      const { id } = JSON.parse(event.data);
      state.messages.delete(id);
      document.querySelector(`.message[data-id="${id}"]`)?.remove();
      drawEmpty();
    });
    source.addEventListener("activity", (event) => {
      const { channel, mention } = JSON.parse(event.data);
      noteActivity(channel, mention);
    });
  }

  // -- messages -------------------------------------------------------------------------------

  function nearBottom() {
    const box = $("messages");
    return box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  }

  function scrollDown() {
    const box = $("messages");
    box.scrollTop = box.scrollHeight;
  }

  function drawEmpty() {
    const box = $("messages");
    const empty = box.querySelector(".empty");
    if (state.messages.size === 0 && !empty) {
      const welcome = el("div", "empty");
      const or = (paths) => paths.map((p) => "/" + p).join(" or ");
      const starts = state.world.hints.start;
      const tables = state.world.hints.table;
      welcome.append(
        el("div", "empty-hash", "#"),
        el("h2", null, `Welcome to #${names.channels.get(state.channel)}!`),
        el("p", null, "Type / to see the bot's commands."
          + (starts.length ? ` Open a table with ${or(starts)}, and let others join from `
            + "their own tabs." : "")
          + " The channels start empty whenever the playground starts"
          + (tables.length ? `: ${or(tables)} shows a game still running.` : ".")),
      );
      box.append(welcome);
    } else if (state.messages.size > 0 && empty) {
      empty.remove();
    }
  }

  function drawAll() {
    const box = $("messages");
    box.replaceChildren();
    const ids = [...state.messages.keys()].sort(byId);
    for (const id of ids) {
      if (!state.dismissed.has(id)) box.append(messageNode(state.messages.get(id)));
    }
    drawEmpty();
    scrollDown();
  }

  function drawOne(message) {
    if (state.dismissed.has(message.id)) return;
    const box = $("messages");
    const stay = nearBottom();
    const node = messageNode(message);
    const old = box.querySelector(`.message[data-id="${message.id}"]`);
    if (old) {
      old.replaceWith(node);
    } else {
      const after = [...box.querySelectorAll(".message")]
        .find((other) => byId(other.dataset.id, message.id) > 0);
      box.insertBefore(node, after || null);
    }
    drawEmpty();
    if (stay || (!old && message.ephemeral)) scrollDown();
  }

  function messageNode(message) {
    const node = el("article", "message");
    node.dataset.id = message.id;
    node.dataset.version = `${message.id}:${message.version}`;
    if (message.ephemeral) node.classList.add("ephemeral");
    if (message.mentions.includes(state.me)) node.classList.add("mentioned");
    if (message.interaction && message.interaction.command) {
      const used = el("div", "used");
      used.append(el("span", "used-user", message.interaction.user), " used ",
        el("span", "used-command", "/" + message.interaction.command));
      node.append(used);
    }
    node.append(avatar(message.author));
    const body = el("div", "body");
    const head = el("div", "head");
    head.append(el("span", "author", message.author.name));
    if (message.author.bot) head.append(el("span", "app-tag", "APP"));
    const when = el("time", "when", timeOf(message.timestamp));
    when.dateTime = message.timestamp;
    head.append(when);
    body.append(head);
    if (message.loading) {
      body.append(el("div", "thinking", `${message.author.name} is thinking…`));
    }
    if (message.content) {
      const content = el("div", "content");
      content.append(markdown(message.content));
      if (message.edited) {
        // at the end of the last line, as Discord shows it
        const last = content.lastElementChild;
        (last && last.matches(".line, .heading, blockquote") ? last : content)
          .append(el("span", "edited", "(edited)"));
      }
      body.append(content);
    }
    for (const embed of message.embeds) body.append(embedNode(embed));
    for (const file of message.attachments) body.append(fileNode(file));
    const parts = componentNodes(message, message.components);
    if (parts.length) {
      const holder = el("div", "components");
      holder.append(...parts);
      body.append(holder);
    }
    const error = el("div", "interaction-error");
    error.setAttribute("role", "alert");
    error.hidden = true;
    body.append(error);
    if (message.ephemeral) {
      const note = el("div", "only-you");
      const dismiss = el("button", "dismiss", "Dismiss message");
      dismiss.type = "button";
      dismiss.addEventListener("click", () => {
        state.dismissed.add(message.id);
        node.remove();
      });
      note.append("👁 Only you can see this • ", dismiss);
      body.append(note);
    }
    node.append(body);
    return node;
  }

  function fileUrl(url) {
    return `${url}?as=${encodeURIComponent(state.me)}`;
  }

  function image(url, alt, cls) {
    const img = el("img", cls);
    img.src = url.startsWith("/files/") ? fileUrl(url) : url;
    img.alt = alt || "";
    img.loading = "lazy";
    return img;
  }

  function fileNode(file) {
    if ((file.content_type || "").startsWith("image/")) {
      const img = image(file.url, file.description || file.filename, "attachment-image");
      if (file.spoiler) img.classList.add("spoiler-image");
      img.addEventListener("click", () => img.classList.remove("spoiler-image"));
      return img;
    }
    const link = el("a", "attachment-file", "📄 " + file.filename);
    link.href = fileUrl(file.url);
    link.download = file.filename;
    return link;
  }

  function embedNode(embed) {
    const node = el("div", "embed");
    if (embed.color !== undefined && embed.color !== null) {
      node.style.borderLeftColor = "#" + Number(embed.color).toString(16).padStart(6, "0");
    }
    const main = el("div", "embed-main");
    if (embed.author && embed.author.name) {
      const author = el("div", "embed-author");
      if (embed.author.icon_url) author.append(image(embed.author.icon_url, "", "embed-icon"));
      author.append(embed.author.name);
      main.append(author);
    }
    if (embed.title) main.append(inlineMarkdown(embed.title, el("div", "embed-title")));
    if (embed.description) {
      const description = el("div", "embed-description");
      description.append(markdown(embed.description));
      main.append(description);
    }
    if (embed.fields && embed.fields.length) {
      const fields = el("div", "embed-fields");
      for (const field of embed.fields) {
        const box = el("div", field.inline ? "embed-field inline" : "embed-field");
        box.append(inlineMarkdown(field.name, el("div", "embed-field-name")));
        const value = el("div", "embed-field-value");
        value.append(markdown(field.value));
        box.append(value);
        fields.append(box);
      }
      main.append(fields);
    }
    if (embed.image && embed.image.url) main.append(image(embed.image.url, "", "embed-image"));
    if (embed.footer && embed.footer.text || embed.timestamp) {
      const footer = el("div", "embed-footer");
      if (embed.footer && embed.footer.icon_url) {
        footer.append(image(embed.footer.icon_url, "", "embed-icon"));
      }
      const bits = [];
      if (embed.footer && embed.footer.text) bits.push(embed.footer.text);
      if (embed.timestamp) bits.push(timeOf(embed.timestamp));
      footer.append(bits.join(" • "));
      main.append(footer);
    }
    node.append(main);
    if (embed.thumbnail && embed.thumbnail.url) {
      node.append(image(embed.thumbnail.url, "", "embed-thumbnail"));
    }
    return node;
  }

  // -- components: buttons and menus (and Components V2 layout) -------------------------------

  const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link" };

  function showError(message, text) {
    const box = document.querySelector(`.message[data-id="${message.id}"] .interaction-error`);
    if (box) {
      box.textContent = text;
      box.hidden = false;
    }
  }

  // the bot launched its Activity (callback 12): Discord's client opens it; here the fake
  // Discord client does, in a tab of its own (one per person)
  function openActivity(answer) {
    if (!answer.activity) return true;
    return window.open(answer.activity, `activity-${state.me}`) !== null;
  }

  async function interact(message, control, path, body) {
    control.classList.add("pending");
    control.disabled = true;
    try {
      const answer = await post(path, { message: message.id, ...body });
      if (answer.modal) openModal(answer);
      if (!openActivity(answer)) showError(message, `Open the Activity: ${answer.activity}`);
    } catch (error) {
      showError(message, error.message);
    } finally {
      control.classList.remove("pending");
      control.disabled = false;
    }
  }

  function emojiNode(emoji) {
    if (!emoji) return null;
    if (emoji.id) {
      const img = el("img", "emoji");
      img.src = `/emojis/${emoji.id}`;
      img.alt = `:${emoji.name}:`;
      return img;
    }
    return el("span", "emoji", emoji.name);
  }

  function buttonNode(message, component) {
    const style = BUTTON_STYLES[component.style] || "secondary";
    const node = el(style === "link" ? "a" : "button", `button ${style}`);
    const emoji = emojiNode(component.emoji);
    if (emoji) node.append(emoji);
    if (component.label) node.append(el("span", "label", component.label));
    if (style === "link") {
      node.href = component.url;
      node.target = "_blank";
      node.rel = "noopener noreferrer";
      node.append(" ↗");
      return node;
    }
    node.type = "button";
    node.disabled = Boolean(component.disabled);
    node.addEventListener("click", () =>
      interact(message, node, "/api/click", { custom_id: component.custom_id }));
    return node;
  }

  function selectNode(message, component) {
    const holder = el("div", "select");
    const select = el("select");
    select.dataset.customId = component.custom_id;
    select.disabled = Boolean(component.disabled);
    const many = (component.max_values || 1) > 1;
    select.setAttribute("aria-label", component.placeholder || "Make a selection");
    if (many) {
      select.multiple = true;
      select.size = Math.min(6, (component.options || []).length);
    } else {
      const placeholder = el("option", null, component.placeholder || "Make a selection");
      placeholder.value = "";
      placeholder.disabled = true;
      placeholder.selected = true;
      select.append(placeholder);
    }
    for (const option of component.options || []) {
      const text = (option.emoji && !option.emoji.id ? option.emoji.name + " " : "")
        + option.label + (option.description ? " — " + option.description : "");
      const node = el("option", null, text);
      node.value = option.value;
      if (option.default && many) node.selected = true;
      select.append(node);
    }
    holder.append(select);
    const send = () => {
      const values = [...select.selectedOptions].map((o) => o.value).filter((v) => v !== "");
      if (values.length) interact(message, select, "/api/select",
        { custom_id: component.custom_id, values });
    };
    if (many) {
      const choose = el("button", "button primary", "Choose");
      choose.type = "button";
      choose.addEventListener("click", send);
      holder.append(choose);
    } else {
      select.addEventListener("change", send);
    }
    return holder;
  }

  function componentNodes(message, components) {
    const out = [];
    for (const component of components || []) {
      switch (component.type) {
        case 1: {
          const row = el("div", "row");
          row.append(...componentNodes(message, component.components));
          out.push(row);
          break;
        }
        case 2: out.push(buttonNode(message, component)); break;
        case 3: out.push(selectNode(message, component)); break;
        case 9: {
          const section = el("div", "section");
          const text = el("div", "section-text");
          text.append(...componentNodes(message, component.components));
          section.append(text, ...componentNodes(message, [component.accessory]));
          out.push(section);
          break;
        }
        case 10: {
          const text = el("div", "text-display");
          text.append(markdown(component.content || ""));
          out.push(text);
          break;
        }
        case 11:
          out.push(image(component.media.url, component.description, "thumbnail"));
          break;
        case 12: {
          const gallery = el("div", "gallery");
          for (const item of component.items || []) {
            gallery.append(image(item.media.url, item.description, "gallery-image"));
          }
          out.push(gallery);
          break;
        }
        case 13: {
          const link = el("a", "attachment-file", "📄 " + component.file.url.split("/").pop());
          link.href = fileUrl(component.file.url);
          out.push(link);
          break;
        }
        case 14: out.push(el("hr", "separator")); break;
        case 17: {
          const box = el("div", "container");
          if (component.accent_color !== undefined && component.accent_color !== null) {
            box.style.borderLeftColor = "#"
              + Number(component.accent_color).toString(16).padStart(6, "0");
          }
          box.append(...componentNodes(message, component.components));
          out.push(box);
          break;
        }
        default:
          if (component.type >= 5 && component.type <= 8) {
            out.push(el("div", "unsupported", "(a user/role/channel menu: not on this page)"));
          }
      }
    }
    return out;
  }

  // -- modals ---------------------------------------------------------------------------------

  function openModal(answer) {
    const dialog = $("modal");
    $("modal-title").textContent = answer.modal.title || "";
    const fields = $("modal-fields");
    fields.replaceChildren();
    const inputs = [];
    const walk = (items, label) => {
      for (const item of items || []) {
        if (item.type === 4) {
          const wrap = el("label", "modal-field");
          wrap.append(el("span", null, item.label || label || item.custom_id));
          const input = el(item.style === 2 ? "textarea" : "input");
          input.value = item.value || "";
          input.required = item.required !== false;
          input.dataset.customId = item.custom_id;
          wrap.append(input);
          fields.append(wrap);
          inputs.push(input);
        }
        walk(item.components, item.label);
        if (item.component) walk([item.component], item.label);
      }
    };
    walk(answer.modal.components);
    $("modal-cancel").onclick = () => dialog.close();
    $("modal-form").onsubmit = async (event) => {
      event.preventDefault();
      const values = Object.fromEntries(inputs.map((i) => [i.dataset.customId, i.value]));
      dialog.close();
      try {
        await post("/api/modal", { interaction: answer.interaction, values });
      } catch (error) {
        composerError(error.message);
      }
    };
    dialog.showModal();
  }

  // -- the message box: commands with a pop-up, and plain messages ----------------------------

  function composerError(text) {
    const box = $("composer-error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function closeSuggestions() {
    state.suggestions = { mode: null, items: [], active: -1, moved: false };
    $("suggestions").hidden = true;
  }

  function drawSuggestions(answer) {
    const box = $("suggestions");
    box.replaceChildren();
    if (!answer.items.length && !answer.title) {
      closeSuggestions();
      return;
    }
    state.suggestions = { mode: answer.mode, items: answer.items,
      active: answer.items.length ? 0 : -1, moved: false };
    if (answer.title) box.append(el("div", "suggestions-title", answer.title));
    answer.items.forEach((item, n) => {
      const row = el("button", "suggestion");
      row.type = "button";
      row.dataset.index = String(n);
      row.append(el("span", "suggestion-label", item.label));
      if (item.description) row.append(el("span", "suggestion-description", item.description));
      row.addEventListener("mousedown", (event) => {
        event.preventDefault();
        choose(n);
      });
      box.append(row);
    });
    box.hidden = false;
    highlight();
  }

  function highlight() {
    const rows = $("suggestions").querySelectorAll(".suggestion");
    rows.forEach((row, n) => row.classList.toggle("active", n === state.suggestions.active));
    rows[state.suggestions.active]?.scrollIntoView({ block: "nearest" });
  }

  function choose(n) {
    const item = state.suggestions.items[n];
    if (!item) return;
    const input = $("input");
    input.value = item.text;
    input.focus();
    refreshSuggestions();
  }

  let asked = 0;
  let answering = Promise.resolve();
  function refreshSuggestions() {
    answering = askSuggestions();
    return answering;
  }

  async function askSuggestions() {
    const text = $("input").value;
    composerError("");
    if (!text.startsWith("/")) {
      closeSuggestions();
      return;
    }
    const ticket = ++asked;
    try {
      const answer = await post("/api/suggest", { channel: state.channel, text });
      if (ticket === asked) drawSuggestions(answer);
    } catch (error) {
      if (ticket === asked) closeSuggestions();
    }
  }

  async function send() {
    const input = $("input");
    const text = input.value.trim();
    if (!text) return;
    closeSuggestions();
    const command = text.startsWith("/");
    input.value = "";
    try {
      if (command) {
        const answer = await post("/api/command", { channel: state.channel, text });
        if (!openActivity(answer)) composerError(`Open the Activity: ${answer.activity}`);
      } else {
        await post("/api/say", { channel: state.channel, text });
      }
    } catch (error) {
      if (!input.value) input.value = text;
      composerError(error.message);
    }
  }

  function setUpComposer() {
    const input = $("input");
    input.addEventListener("input", refreshSuggestions);
    input.addEventListener("focus", refreshSuggestions);
    input.addEventListener("blur", () => setTimeout(closeSuggestions, 150));
    input.addEventListener("keydown", async (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        // decide on the pop-up for what is typed now, not for an older answer
        await answering;
      }
      const s = state.suggestions;
      const open = !$("suggestions").hidden && s.items.length > 0;
      if (open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        s.active = (s.active + step + s.items.length) % s.items.length;
        s.moved = true;
        highlight();
      } else if (open && event.key === "Tab") {
        event.preventDefault();
        choose(Math.max(0, s.active));
      } else if (event.key === "Escape") {
        closeSuggestions();
      } else if (event.key === "Enter") {
        // Enter picks from the pop-up while a command is being chosen or after the arrows were
        // used; otherwise it sends what is typed, as Discord's client does
        const exact = s.items.some((item) => item.label === input.value.trim());
        if (open && s.active >= 0 && (s.moved || (s.mode === "commands" && !exact))) {
          choose(s.active);
        } else {
          send();
        }
      }
    });
    $("send").addEventListener("submit", (event) => {
      event.preventDefault();
      send();
    });
  }

  // -- start ----------------------------------------------------------------------------------

  function pick() {
    const box = $("picker-users");
    box.replaceChildren();
    for (const user of state.world.users) {
      const choice = el("button", "picker-user");
      choice.type = "button";
      choice.append(avatar(user), el("span", null, user.name));
      if (user.moderator) choice.append(el("span", "picker-note", "moderator"));
      choice.addEventListener("click", () => {
        $("picker").hidden = true;
        become(user.id);
      });
      box.append(choice);
    }
    $("picker").hidden = false;
  }

  async function start() {
    const response = await fetch("/api/world");
    state.world = await response.json();
    for (const user of state.world.users) names.users.set(user.id, user.name);
    names.users.set(state.world.bot.id, state.world.bot.name);
    for (const channel of state.world.channels) names.channels.set(channel.id, channel.name);
    drawSidebar();
    setUpComposer();
    $("menu").addEventListener("click", () => document.body.classList.toggle("menu-open"));
    const { user, channel } = fromUrl();
    state.channel = channel.id;
    if (user) become(user.id);
    else pick();
  }

  start();
})();
