// The global `desk` of a script run (docs/runtime.md), for editors and type checkers.
// Generated from the verb declarations in src/desk/verbs/ by `nish-docgen --write-runtime runtime`;
// a test fails when this file differs. Do not edit: change the declarations and regenerate.

/** What a desk verb answers: its result as parsed JSON; a picture as image_b64 (a PNG, or a JPEG when image_mime says
 * image/jpeg, as the vision verbs answer). */
export type DeskResult = any;

/** The arguments of desk.wait (desk_wait). */
export interface DeskWaitArgs {
    /** a desk_windows (or desk_wait) result: {"windows": [...]} */
    since: Record<string, unknown>;
    /** how long to wait in milliseconds; more than 5000 counts as 5000 (an integer, >= 0) */
    timeout_ms: number;
}

/** The arguments of desk.snapshot (desk_snapshot). */
export interface DeskSnapshotArgs {
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
    /** a window id from desk_windows, in place of window */
    id?: string;
    /** each node also carries its raw AT-SPI key binding as keys, when it has one */
    keys?: boolean;
    /** the app's menu bar (macOS only; ignored here) */
    menus?: boolean;
    /** each node on screen also carries bounds {x, y, w, h} in desk coordinates */
    bounds?: boolean;
    /** answer an indented outline text instead of nodes */
    text?: boolean;
    /** with text: at most this many characters (default 20000) (an integer, >= 1) */
    max_chars?: number;
}

/** The arguments of desk.find (desk_find). */
export interface DeskFindArgs {
    /** a part of the node's name, compared without case */
    name: string;
    /** the node's role as a snapshot names it, e.g. push_button */
    role?: string;
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
}

/** The arguments of desk.read (desk_read). */
export interface DeskReadArgs {
    /** a node id such as s3:17 */
    id: string;
    /** also answer text: the indented outline of the node and what it holds */
    text?: boolean;
}

/** The arguments of desk.at (desk_at). */
export interface DeskAtArgs {
    /** screen x in desk coordinates (an integer) */
    x: number;
    /** screen y in desk coordinates (an integer) */
    y: number;
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
}

/** The arguments of desk.focus (desk_focus). */
export interface DeskFocusArgs {
    /** the window's title, or a part of it only one window has */
    window: string;
    /** the window's process, when titles repeat (an integer) */
    pid?: number;
}

/** The arguments of desk.close (desk_close). */
export interface DeskCloseArgs {
    /** the window's title, or a part of it only one window has */
    window: string;
    /** the window's process, when titles repeat (an integer) */
    pid?: number;
}

/** The arguments of desk.launch (desk_launch). */
export interface DeskLaunchArgs {
    /** the executable's name, e.g. gedit */
    app: string;
}

/** The arguments of desk.press (desk_press). */
export interface DeskPressArgs {
    /** the node's id (<snapshot>:<N>) from desk_snapshot or desk_find */
    id: string;
}

/** The arguments of desk.act (desk_act). */
export interface DeskActArgs {
    /** the node's id (<snapshot>:<N>) from desk_snapshot or desk_find */
    id: string;
    /** what to do */
    action: "click" | "action" | "select" | "focus";
}

/** The arguments of desk.key (desk_key). */
export interface DeskKeyArgs {
    /** key names joined with '+', e.g. ctrl+s */
    keys: string;
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
}

/** The arguments of desk.type (desk_type). */
export interface DeskTypeArgs {
    /** the text, UTF-8 */
    text: string;
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
    /** the text field's node id */
    id?: string;
}

/** The arguments of desk.click (desk_click). */
export interface DeskClickArgs {
    /** x in desk coordinates, or with window a pixel of its shot image (an integer) */
    x: number;
    /** y in desk coordinates, or with window a pixel of its shot image (an integer) */
    y: number;
    /** left (default) or right; middle is refused, since it pastes */
    button?: "left" | "right" | "middle";
    /** clicks: 1 (default), 2 for a double click, 3 for a triple (an integer, >= 1, <= 3) */
    count?: number;
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
}

/** The arguments of desk.scroll (desk_scroll). */
export interface DeskScrollArgs {
    /** which way */
    direction: "up" | "down" | "left" | "right";
    /** notches, default 3; more than 50 are capped at 50 (an integer, >= 1) */
    amount?: number;
    /** x in desk coordinates, or with window a pixel of its shot image (an integer) */
    x?: number;
    /** y in desk coordinates, or with window a pixel of its shot image (an integer) */
    y?: number;
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
}

/** The arguments of desk.drag (desk_drag). */
export interface DeskDragArgs {
    /** start x (an integer) */
    x: number;
    /** start y (an integer) */
    y: number;
    /** end x (an integer) */
    to_x: number;
    /** end y (an integer) */
    to_y: number;
    /** the window's title, or a part of it only one window has */
    window?: string;
    /** the window's process (an integer) */
    pid?: number;
}

/** The arguments of desk.shot (desk_shot). */
export interface DeskShotArgs {
    /** left of the rectangle (an integer) */
    x?: number;
    /** top of the rectangle (an integer) */
    y?: number;
    /** width of the rectangle (an integer) */
    w?: number;
    /** height of the rectangle (an integer) */
    h?: number;
    /** an absolute file path the PNG is also written to */
    path?: string;
    /** the window's title, or a part of it only one window has */
    window?: string;
}

/** The arguments of desk.still (desk_still). */
export interface DeskStillArgs {
    /** the polling deadline, default 600, at most 5000 (an integer, >= 0, <= 5000) */
    timeout_ms?: number;
    /** how long no counted change must last, default 40 (an integer, >= 0, <= 5000) */
    hold_ms?: number;
}

/** The arguments of desk.computer_state (desk_computer_state). */
export interface DeskComputerStateArgs {
    /** the session whose element indexes and screenshot scale to use; default: yours */
    session?: string;
    /** list the elements of this process's frontmost window (an integer) */
    pid?: number;
    /** list the elements of this window (an id of the windows list) (an integer) */
    window_id?: number;
    /** keep the elements whose name or role contains this, without case */
    query?: string;
    /** the screenshot's long edge in pixels, default 1024, 0 for full size (an integer, >= 0, <= 16384) */
    max_edge?: number;
    /** only the current workspace's windows (on X11 the only ones shown) */
    workspace_only?: boolean;
}

/** The arguments of desk.computer_act (desk_computer_act). */
export interface DeskComputerActArgs {
    /** the session whose element indexes and screenshot scale to use; default: yours */
    session?: string;
    /** what to do */
    action?: "click" | "left_click" | "double_click" | "right_click" | "triple_click" | "type" | "key" | "hotkey" | "scroll" | "drag" | "wait" | "launch_app";
    /** an [index] of the session's latest computer_state (an integer) */
    element?: number;
    /** x in screenshot pixels (a number) */
    x?: number;
    /** y in screenshot pixels (a number) */
    y?: number;
    /** drag: end x in screenshot pixels (a number) */
    to_x?: number;
    /** drag: end y in screenshot pixels (a number) */
    to_y?: number;
    /** type: the text */
    text?: string;
    /** key: a key or combination, e.g. ctrl+s */
    key?: string;
    /** hotkey: the keys held together, e.g. ["ctrl", "s"] */
    keys?: string[];
    /** scroll: which way (default down) */
    direction?: "up" | "down" | "left" | "right";
    /** scroll: notches, default 3 (an integer, >= 1, <= 50) */
    amount?: number;
    /** launch_app: the executable's name */
    app?: string;
    /** click: left (default) or right */
    button?: "left" | "right";
    /** wait: seconds, default 1 (a number, >= 0, <= 30) */
    seconds?: number;
    /** send the input in the foreground (on X11 it always is) */
    foreground?: boolean;
    /** the screenshot's long edge in pixels, default 1024, 0 for full size (an integer, >= 0, <= 16384) */
    max_edge?: number;
    /** screen pixels per pixel of the screenshot your x, y are in (default: the session's latest) (a number, >= 0.01, <= 100) */
    scale?: number;
    /** a list of action objects ({action, element or x, y, ...}) instead of action */
    actions?: string | Record<string, unknown> | unknown[];
}

/** The arguments of desk.computer_end (desk_computer_end). */
export interface DeskComputerEndArgs {
    /** the session to end */
    session: string;
}

/** The arguments of desk.computer_scale (desk_computer_scale). */
export interface DeskComputerScaleArgs {
    /** the session whose element indexes and screenshot scale to use; default: yours */
    session?: string;
}

/** The arguments of desk.look (desk_look). */
export interface DeskLookArgs {
    /** the session whose element indexes and screenshot scale to use; default: yours */
    session?: string;
    /** the screenshot's long edge in pixels, default 1024, 0 for full size (an integer, >= 0, <= 16384) */
    max_edge?: number;
    /** only the current workspace's windows (on X11 the only ones shown) */
    workspace_only?: boolean;
    /** {x, y, w, h} in screenshot pixels: that part at full resolution */
    region?: Record<string, unknown>;
    /** A yes/no question about the picture: the verify model answers it (answer: its probability), within 5000 ms. */
    question?: string;
}

/** The arguments of desk.title_at (desk_title_at). */
export interface DeskTitleAtArgs {
    /** x in screen pixels (an integer) */
    x: number;
    /** y in screen pixels (an integer) */
    y: number;
}

/** The arguments of desk.model.decide (model_decide). */
export interface DeskModelDecideArgs {
    /** text, JSON, or a list of text and image_url (data:image/png;base64) parts */
    state: string | Record<string, unknown> | unknown[];
    /** {key: {type: "yesno"|"choice", instructions, criteria?, choices?}} */
    questions: Record<string, unknown>;
    /** the state holds a screenshot (the verify model answers) */
    image?: boolean;
    /** caps the configured timeout (an integer, >= 100, <= 600000) */
    timeout_ms?: number;
}

/** The arguments of desk.model.ask (model_ask). */
export interface DeskModelAskArgs {
    /** the question */
    prompt: string;
    /** base64 PNGs */
    images?: string[];
    /** caps the configured timeout (an integer, >= 100, <= 600000) */
    timeout_ms?: number;
}

/** The arguments of desk.model.ground (model_ground). */
export interface DeskModelGroundArgs {
    /** base64 PNG */
    png_b64: string;
    /** what to find */
    target: string;
    /** {left?, top?, width, height}: the desk rectangle the PNG shows, not its size */
    area: Record<string, unknown>;
    /** caps the configured timeout (an integer, >= 100, <= 600000) */
    timeout_ms?: number;
}

/** The model tools (docs/models.md): the daemon asks its models and holds the key. */
export interface DeskModels {
    /** Asks a model yes/no and choice questions about a state; answers {answers: {key: {probability}} or {key: {choice, confidence, probabilities}}, served, usage}. */
    decide(args: DeskModelDecideArgs): Promise<DeskResult>;
    /** Asks a model yes/no and choice questions about a state; answers {answers: {key: {probability}} or {key: {choice, confidence, probabilities}}, served, usage}. */
    decide(state: string | Record<string, unknown> | unknown[], questions: Record<string, unknown>, more?: Omit<DeskModelDecideArgs, "state" | "questions">): Promise<DeskResult>;
    /** Asks a model, with PNG screenshots if given; answers {text, served, usage}. */
    ask(args: DeskModelAskArgs): Promise<DeskResult>;
    /** Asks a model, with PNG screenshots if given; answers {text, served, usage}. */
    ask(prompt: string, more?: Omit<DeskModelAskArgs, "prompt">): Promise<DeskResult>;
    /** Finds a target on a PNG with a model; answers {x, y} in desk coordinates within area, served, usage. */
    ground(args: DeskModelGroundArgs): Promise<DeskResult>;
    /** Finds a target on a PNG with a model; answers {x, y} in desk coordinates within area, served, usage. */
    ground(png_b64: string, target: string, area: Record<string, unknown>, more?: Omit<DeskModelGroundArgs, "png_b64" | "target" | "area">): Promise<DeskResult>;
}

/** The desk: one function per desk verb. A verb takes one object of arguments, or its required
 * arguments in order and then an object of further ones. A refusal rejects with an Error
 * carrying the daemon's text (deskText) and the tool. */
export interface Desk {
    /** The top-level windows, topmost first: id (pass it to snapshot as id), title, role (window or dialog), pid, active and app; a modal dialog the screen does not show has modal (hidden, off the screen, or behind "TITLE") and blocks (the title of the window it blocks); a window of the desktop shell's process has shell: true. Only windows of allowed apps are listed. */
    windows(): Promise<DeskResult>;
    /** The active window when accessibility lists no window of its process, as an app that stopped answering (busy, or blocked in a dialog) leaves it: title, pid, role and app, with id "" (its tree cannot be read). null when there is none or its app is not allowed. */
    unanswered(): Promise<DeskResult>;
    /** Waits until the window list differs from since (a desk_windows or desk_wait result), then answers changed: true and the new windows; or, once timeout_ms (5000 at most) has passed, changed: false and the same list. Both lists are compared after the app allowlist filters them. */
    wait(args: DeskWaitArgs): Promise<DeskResult>;
    /** Waits until the window list differs from since (a desk_windows or desk_wait result), then answers changed: true and the new windows; or, once timeout_ms (5000 at most) has passed, changed: false and the same list. Both lists are compared after the app allowlist filters them. */
    wait(since: Record<string, unknown>, timeout_ms: number): Promise<DeskResult>;
    /** A window's accessibility tree as nodes (ref = row, id = a node id for read, press and act, parent row, depth, role, name, states, value), or with text an indented outline. Names the window by window (title), id (from desk_windows) or pid; none: the active allowed window. */
    snapshot(args?: DeskSnapshotArgs): Promise<DeskResult>;
    /** The nodes whose name contains name (without case), optionally of one role, in the window that window or pid names, else in the first allowed window, topmost first, that has any. Answers the window and the nodes with ids that read, press and act take. */
    find(args: DeskFindArgs): Promise<DeskResult>;
    /** The nodes whose name contains name (without case), optionally of one role, in the window that window or pid names, else in the first allowed window, topmost first, that has any. Answers the window and the nodes with ids that read, press and act take. */
    find(name: string, more?: Omit<DeskFindArgs, "name">): Promise<DeskResult>;
    /** One node by its id (from desk_snapshot or desk_find), read afresh: role, name, states, value (never of a password field), bounds, its window; with text also the outline of its subtree. */
    read(args: DeskReadArgs): Promise<DeskResult>;
    /** One node by its id (from desk_snapshot or desk_find), read afresh: role, name, states, value (never of a password field), bounds, its window; with text also the outline of its subtree. */
    read(id: string, more?: Omit<DeskReadArgs, "id">): Promise<DeskResult>;
    /** The node at a screen point (desk coordinates), its ancestors and the pid of its process, read in the window that window or pid names, else in the topmost window at the point. covered {title, pid} names another window on top at that point; covered {surface, bounds, reserved_for_person} one of nish-driver's own windows (its consent dialog, takeover indicator or Continue button), which only the person may answer. */
    at(args: DeskAtArgs): Promise<DeskResult>;
    /** The node at a screen point (desk coordinates), its ancestors and the pid of its process, read in the window that window or pid names, else in the topmost window at the point. covered {title, pid} names another window on top at that point; covered {surface, bounds, reserved_for_person} one of nish-driver's own windows (its consent dialog, takeover indicator or Continue button), which only the person may answer. */
    at(x: number, y: number, more?: Omit<DeskAtArgs, "x" | "y">): Promise<DeskResult>;
    /** Brings a window to the front and gives it the keyboard focus (through the window manager, as a taskbar does), and answers once the window manager names it active. */
    focus(args: DeskFocusArgs): Promise<DeskResult>;
    /** Brings a window to the front and gives it the keyboard focus (through the window manager, as a taskbar does), and answers once the window manager names it active. */
    focus(window: string, more?: Omit<DeskFocusArgs, "window">): Promise<DeskResult>;
    /** Asks a window to close, as its close button does. closed says whether it went within 1.5 s; false means it is still open, often asking to save or confirm: read it with desk_snapshot. */
    close(args: DeskCloseArgs): Promise<DeskResult>;
    /** Asks a window to close, as its close button does. closed says whether it went within 1.5 s; false means it is still open, often asking to save or confirm: read it with desk_snapshot. */
    close(window: string, more?: Omit<DeskCloseArgs, "window">): Promise<DeskResult>;
    /** Starts an app by its executable name on PATH (no arguments, no shell), in a process group of its own with every toolkit's accessibility on (so its windows read, GTK 2's too) and, where systemd allows, a user scope of its own (scoped: false when it stays in the daemon's cgroup). Answers its pid at once, without waiting for its window: wait for that with desk_wait. */
    launch(args: DeskLaunchArgs): Promise<DeskResult>;
    /** Starts an app by its executable name on PATH (no arguments, no shell), in a process group of its own with every toolkit's accessibility on (so its windows read, GTK 2's too) and, where systemd allows, a user scope of its own (scoped: false when it stays in the daemon's cgroup). Answers its pid at once, without waiting for its window: wait for that with desk_wait. */
    launch(app: string): Promise<DeskResult>;
    /** Presses a node: selects a tab or row; runs a menu entry's action; opens the menus above a hidden menu and clicks a menu at its centre; clicks another node at its centre when a hit test there finds it, else runs its own click action (press, check, Toggle, ...: the one the driver's click runs). how says which was done. */
    press(args: DeskPressArgs): Promise<DeskResult>;
    /** Presses a node: selects a tab or row; runs a menu entry's action; opens the menus above a hidden menu and clicks a menu at its centre; clicks another node at its centre when a hit test there finds it, else runs its own click action (press, check, Toggle, ...: the one the driver's click runs). how says which was done. */
    press(id: string): Promise<DeskResult>;
    /** One action on a node: click (the left button at its centre, when a hit test finds the node there), action (its own click action, as the driver's click chooses it), select (in its parent's selection), or focus (the keyboard focus inside its window). */
    act(args: DeskActArgs): Promise<DeskResult>;
    /** One action on a node: click (the left button at its centre, when a hit test finds the node there), action (its own click action, as the driver's click chooses it), select (in its parent's selection), or focus (the keyboard focus inside its window). */
    act(id: string, action: "click" | "action" | "select" | "focus"): Promise<DeskResult>;
    /** Sends a key combination ("ctrl+s", "ctrl+shift+t", "Return") to the focused window: keys pressed in order and released in reverse. With window or pid, that window is brought to the front first. A printable key or a paste is refused while a password field has the focus. */
    key(args: DeskKeyArgs): Promise<DeskResult>;
    /** Sends a key combination ("ctrl+s", "ctrl+shift+t", "Return") to the focused window: keys pressed in order and released in reverse. With window or pid, that window is brought to the front first. A printable key or a paste is refused while a password field has the focus. */
    key(keys: string, more?: Omit<DeskKeyArgs, "keys">): Promise<DeskResult>;
    /** Types text into the focused element of the focused window (with window or pid, that window is brought to the front first). Refused when the focused element is a password field. */
    type(args: DeskTypeArgs): Promise<DeskResult>;
    /** Types text into the focused element of the focused window (with window or pid, that window is brought to the front first). Refused when the focused element is a password field. */
    type(text: string, more?: Omit<DeskTypeArgs, "text">): Promise<DeskResult>;
    /** Clicks a screen point (desk coordinates) in the foreground. With window, x and y are pixels of that window's shot image (desk_shot with window), and the window is brought to the front first. The middle button is refused: it pastes. */
    click(args: DeskClickArgs): Promise<DeskResult>;
    /** Clicks a screen point (desk coordinates) in the foreground. With window, x and y are pixels of that window's shot image (desk_shot with window), and the window is brought to the front first. The middle button is refused: it pastes. */
    click(x: number, y: number, more?: Omit<DeskClickArgs, "x" | "y">): Promise<DeskResult>;
    /** Wheel notches in the foreground. With x and y, at that point (with window, pixels of its shot image), scrolling whatever is under it; without them, at the centre of the front (focused) app window, failing when another window covers that centre. */
    scroll(args: DeskScrollArgs): Promise<DeskResult>;
    /** Wheel notches in the foreground. With x and y, at that point (with window, pixels of its shot image), scrolling whatever is under it; without them, at the centre of the front (focused) app window, failing when another window covers that centre. */
    scroll(direction: "up" | "down" | "left" | "right", more?: Omit<DeskScrollArgs, "direction">): Promise<DeskResult>;
    /** Presses the left button at (x, y), moves to (to_x, to_y) in steps and releases there, in desk coordinates or with window in pixels of that window's shot image. The allowlist gates both ends. */
    drag(args: DeskDragArgs): Promise<DeskResult>;
    /** Presses the left button at (x, y), moves to (to_x, to_y) in steps and releases there, in desk coordinates or with window in pixels of that window's shot image. The allowlist gates both ends. */
    drag(x: number, y: number, to_x: number, to_y: number, more?: Omit<DeskDragArgs, "x" | "y" | "to_x" | "to_y">): Promise<DeskResult>;
    /** A PNG (image_b64) of the screen, or of a rectangle of it in desk coordinates; with window, of that window's own capture, and x, y, w, h crop it in its own pixels (origin gives the crop's top left in the whole window image). Password fields are always blacked out. With path (absolute) the PNG is also written there. */
    shot(args?: DeskShotArgs): Promise<DeskResult>;
    /** Waits until the screen holds still for hold_ms (still: true), or timeout_ms passes (still: false). Clocks, spinners and blinking carets do not count as change. */
    still(args?: DeskStillArgs): Promise<DeskResult>;
    /** The screen's width and height in pixels: the desk coordinates that click, at, shot and element bounds use. */
    screen(): Promise<DeskResult>;
    /** For a vision agent: the windows frontmost first (geometry in screenshot pixels), modal dialogs the screen does not show, the elements [index, role, name, x, y, states?] of the frontmost app window (or of pid / window_id) with centres in screenshot pixels (at most 300; query filters them by name or role), and a JPEG screenshot of the whole screen scaled to max_edge. Password fields are blacked out. Refused with an app allowlist. */
    computer_state(args?: DeskComputerStateArgs): Promise<DeskResult>;
    /** For a vision agent: one action, or actions (a list of action objects) run in order up to the first failure, each waited out until the screen is still. Points are an element [index] of computer_state or x, y in screenshot pixels. Answers what each step did, the windows it opened, closed or brought to the front, typed N of M for type, and a new JPEG screenshot. Refused with an app allowlist. */
    computer_act(args?: DeskComputerActArgs): Promise<DeskResult>;
    /** Ends a vision session: forgets its elements and screenshot scale, and refuses its name from now on. A caller whose default session ended gets a new default on its next call. */
    computer_end(args: DeskComputerEndArgs): Promise<DeskResult>;
    /** Ends a vision session: forgets its elements and screenshot scale, and refuses its name from now on. A caller whose default session ended gets a new default on its next call. */
    computer_end(session: string): Promise<DeskResult>;
    /** scale: screen pixels per pixel of the session's latest screenshot, else of any session's latest (from says which). */
    computer_scale(args?: DeskComputerScaleArgs): Promise<DeskResult>;
    /** A JPEG of the whole screen scaled to max_edge, or of region (screenshot pixels of the session's latest screenshot) at full resolution with the mapping of its pixels to computer_act x,y. Password fields are blacked out. */
    look(args?: DeskLookArgs): Promise<DeskResult>;
    /** title: whether the screen point (screen pixels) shows a window title, in a window manager's title bar or a desktop panel's button; where says what is there (title_bar, frame, window, panel, desktop, off_screen) and window whose. */
    title_at(args: DeskTitleAtArgs): Promise<DeskResult>;
    /** title: whether the screen point (screen pixels) shows a window title, in a window manager's title bar or a desktop panel's button; where says what is there (title_bar, frame, window, panel, desktop, off_screen) and window whose. */
    title_at(x: number, y: number): Promise<DeskResult>;
    /** model_decide, model_ask and model_ground as desk.model.decide, .ask and .ground. */
    model: DeskModels;
    /** Any wire tool by its raw name ("desk_windows"): the parsed JSON, or the text when it is not JSON. */
    call(tool: string, args?: Record<string, unknown>): Promise<any>;
}

declare global {
    /** The desk of the run, set before the script is imported. */
    var desk: Desk;
}
