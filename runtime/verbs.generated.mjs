// The desk verbs the script runtime's `desk` object offers, and the model tools of desk.model:
// runtime/desk.mjs builds one function per entry.
// Generated from the verb declarations in src/desk/verbs/ by `nish-docgen --write-runtime runtime`;
// a test fails when this file differs. Do not edit: change the declarations and regenerate.

/** @type {readonly {verb: string, tool: string, description: string, args: {name: string, type: string, required: boolean, description: string, enum?: string[]}[]}[]} */
export const VERBS = [
    {
        "verb": "windows",
        "tool": "desk_windows",
        "description": "The top-level windows, topmost first: id (pass it to snapshot as id), title, role (window or dialog), pid, active and app; a modal dialog the screen does not show has modal (hidden, off the screen, or behind \"TITLE\") and blocks (the title of the window it blocks); a window of the desktop shell's process has shell: true. Only windows of allowed apps are listed.",
        "args": []
    },
    {
        "verb": "unanswered",
        "tool": "desk_unanswered",
        "description": "The active window when accessibility lists no window of its process, as an app that stopped answering (busy, or blocked in a dialog) leaves it: title, pid, role and app, with id \"\" (its tree cannot be read). null when there is none or its app is not allowed.",
        "args": []
    },
    {
        "verb": "wait",
        "tool": "desk_wait",
        "description": "Waits until the window list differs from since (a desk_windows or desk_wait result), then answers changed: true and the new windows; or, once timeout_ms (5000 at most) has passed, changed: false and the same list. Both lists are compared after the app allowlist filters them.",
        "args": [
            {
                "name": "since",
                "type": "object",
                "required": true,
                "description": "a desk_windows (or desk_wait) result: {\"windows\": [...]}"
            },
            {
                "name": "timeout_ms",
                "type": "integer",
                "required": true,
                "description": "how long to wait in milliseconds; more than 5000 counts as 5000"
            }
        ]
    },
    {
        "verb": "snapshot",
        "tool": "desk_snapshot",
        "description": "A window's accessibility tree as nodes (ref = row, id = a node id for read, press and act, parent row, depth, role, name, states, value), or with text an indented outline. Names the window by window (title), id (from desk_windows) or pid; none: the active allowed window.",
        "args": [
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            },
            {
                "name": "id",
                "type": "string",
                "required": false,
                "description": "a window id from desk_windows, in place of window"
            },
            {
                "name": "keys",
                "type": "boolean",
                "required": false,
                "description": "each node also carries its raw AT-SPI key binding as keys, when it has one"
            },
            {
                "name": "menus",
                "type": "boolean",
                "required": false,
                "description": "the app's menu bar (macOS only; ignored here)"
            },
            {
                "name": "bounds",
                "type": "boolean",
                "required": false,
                "description": "each node on screen also carries bounds {x, y, w, h} in desk coordinates"
            },
            {
                "name": "text",
                "type": "boolean",
                "required": false,
                "description": "answer an indented outline text instead of nodes"
            },
            {
                "name": "max_chars",
                "type": "integer",
                "required": false,
                "description": "with text: at most this many characters (default 20000)"
            }
        ]
    },
    {
        "verb": "find",
        "tool": "desk_find",
        "description": "The nodes whose name contains name (without case), optionally of one role, in the window that window or pid names, else in the first allowed window, topmost first, that has any. Answers the window and the nodes with ids that read, press and act take.",
        "args": [
            {
                "name": "name",
                "type": "string",
                "required": true,
                "description": "a part of the node's name, compared without case"
            },
            {
                "name": "role",
                "type": "string",
                "required": false,
                "description": "the node's role as a snapshot names it, e.g. push_button"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            }
        ]
    },
    {
        "verb": "read",
        "tool": "desk_read",
        "description": "One node by its id (from desk_snapshot or desk_find), read afresh: role, name, states, value (never of a password field), bounds, its window; with text also the outline of its subtree.",
        "args": [
            {
                "name": "id",
                "type": "string",
                "required": true,
                "description": "a node id such as s3:17"
            },
            {
                "name": "text",
                "type": "boolean",
                "required": false,
                "description": "also answer text: the indented outline of the node and what it holds"
            }
        ]
    },
    {
        "verb": "at",
        "tool": "desk_at",
        "description": "The node at a screen point (desk coordinates), its ancestors and the pid of its process, read in the window that window or pid names, else in the topmost window at the point. covered {title, pid} names another window on top at that point; covered {surface, bounds, reserved_for_person} one of nish-driver's own windows (its consent dialog, takeover indicator or Continue button), which only the person may answer.",
        "args": [
            {
                "name": "x",
                "type": "integer",
                "required": true,
                "description": "screen x in desk coordinates"
            },
            {
                "name": "y",
                "type": "integer",
                "required": true,
                "description": "screen y in desk coordinates"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            }
        ]
    },
    {
        "verb": "focus",
        "tool": "desk_focus",
        "description": "Brings a window to the front and gives it the keyboard focus (through the window manager, as a taskbar does), and answers once the window manager names it active.",
        "args": [
            {
                "name": "window",
                "type": "string",
                "required": true,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process, when titles repeat"
            }
        ]
    },
    {
        "verb": "close",
        "tool": "desk_close",
        "description": "Asks a window to close, as its close button does. closed says whether it went within 1.5 s; false means it is still open, often asking to save or confirm: read it with desk_snapshot.",
        "args": [
            {
                "name": "window",
                "type": "string",
                "required": true,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process, when titles repeat"
            }
        ]
    },
    {
        "verb": "launch",
        "tool": "desk_launch",
        "description": "Starts an app by its executable name on PATH (no arguments, no shell), in a process group of its own with every toolkit's accessibility on (so its windows read, GTK 2's too) and, where systemd allows, a user scope of its own (scoped: false when it stays in the daemon's cgroup). Answers its pid at once, without waiting for its window: wait for that with desk_wait.",
        "args": [
            {
                "name": "app",
                "type": "string",
                "required": true,
                "description": "the executable's name, e.g. gedit"
            }
        ]
    },
    {
        "verb": "press",
        "tool": "desk_press",
        "description": "Presses a node: selects a tab or row; runs a menu entry's action; opens the menus above a hidden menu and clicks a menu at its centre; clicks another node at its centre when a hit test there finds it, else runs its own click action (press, check, Toggle, ...: the one the driver's click runs). how says which was done.",
        "args": [
            {
                "name": "id",
                "type": "string",
                "required": true,
                "description": "the node's id (<snapshot>:<N>) from desk_snapshot or desk_find"
            }
        ]
    },
    {
        "verb": "act",
        "tool": "desk_act",
        "description": "One action on a node: click (the left button at its centre, when a hit test finds the node there), action (its own click action, as the driver's click chooses it), select (in its parent's selection), or focus (the keyboard focus inside its window).",
        "args": [
            {
                "name": "id",
                "type": "string",
                "required": true,
                "description": "the node's id (<snapshot>:<N>) from desk_snapshot or desk_find"
            },
            {
                "name": "action",
                "type": "string",
                "required": true,
                "description": "what to do",
                "enum": [
                    "click",
                    "action",
                    "select",
                    "focus"
                ]
            }
        ]
    },
    {
        "verb": "key",
        "tool": "desk_key",
        "description": "Sends a key combination (\"ctrl+s\", \"ctrl+shift+t\", \"Return\") to the focused window: keys pressed in order and released in reverse. With window or pid, that window is brought to the front first. A printable key or a paste is refused while a password field has the focus.",
        "args": [
            {
                "name": "keys",
                "type": "string",
                "required": true,
                "description": "key names joined with '+', e.g. ctrl+s"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            }
        ]
    },
    {
        "verb": "type",
        "tool": "desk_type",
        "description": "Types text into the focused element of the focused window (with window or pid, that window is brought to the front first). Refused when the focused element is a password field.",
        "args": [
            {
                "name": "text",
                "type": "string",
                "required": true,
                "description": "the text, UTF-8"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            },
            {
                "name": "id",
                "type": "string",
                "required": false,
                "description": "the text field's node id"
            }
        ]
    },
    {
        "verb": "click",
        "tool": "desk_click",
        "description": "Clicks a screen point (desk coordinates) in the foreground. With window, x and y are pixels of that window's shot image (desk_shot with window), and the window is brought to the front first. The middle button is refused: it pastes.",
        "args": [
            {
                "name": "x",
                "type": "integer",
                "required": true,
                "description": "x in desk coordinates, or with window a pixel of its shot image"
            },
            {
                "name": "y",
                "type": "integer",
                "required": true,
                "description": "y in desk coordinates, or with window a pixel of its shot image"
            },
            {
                "name": "button",
                "type": "string",
                "required": false,
                "description": "left (default) or right; middle is refused, since it pastes",
                "enum": [
                    "left",
                    "right",
                    "middle"
                ]
            },
            {
                "name": "count",
                "type": "integer",
                "required": false,
                "description": "clicks: 1 (default), 2 for a double click, 3 for a triple"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            }
        ]
    },
    {
        "verb": "scroll",
        "tool": "desk_scroll",
        "description": "Wheel notches in the foreground. With x and y, at that point (with window, pixels of its shot image), scrolling whatever is under it; without them, at the centre of the front (focused) app window, failing when another window covers that centre.",
        "args": [
            {
                "name": "direction",
                "type": "string",
                "required": true,
                "description": "which way",
                "enum": [
                    "up",
                    "down",
                    "left",
                    "right"
                ]
            },
            {
                "name": "amount",
                "type": "integer",
                "required": false,
                "description": "notches, default 3; more than 50 are capped at 50"
            },
            {
                "name": "x",
                "type": "integer",
                "required": false,
                "description": "x in desk coordinates, or with window a pixel of its shot image"
            },
            {
                "name": "y",
                "type": "integer",
                "required": false,
                "description": "y in desk coordinates, or with window a pixel of its shot image"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            }
        ]
    },
    {
        "verb": "drag",
        "tool": "desk_drag",
        "description": "Presses the left button at (x, y), moves to (to_x, to_y) in steps and releases there, in desk coordinates or with window in pixels of that window's shot image. The allowlist gates both ends.",
        "args": [
            {
                "name": "x",
                "type": "integer",
                "required": true,
                "description": "start x"
            },
            {
                "name": "y",
                "type": "integer",
                "required": true,
                "description": "start y"
            },
            {
                "name": "to_x",
                "type": "integer",
                "required": true,
                "description": "end x"
            },
            {
                "name": "to_y",
                "type": "integer",
                "required": true,
                "description": "end y"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "the window's process"
            }
        ]
    },
    {
        "verb": "shot",
        "tool": "desk_shot",
        "description": "A PNG (image_b64) of the screen, or of a rectangle of it in desk coordinates; with window, of that window's own capture, and x, y, w, h crop it in its own pixels (origin gives the crop's top left in the whole window image). Password fields are always blacked out. With path (absolute) the PNG is also written there.",
        "args": [
            {
                "name": "x",
                "type": "integer",
                "required": false,
                "description": "left of the rectangle"
            },
            {
                "name": "y",
                "type": "integer",
                "required": false,
                "description": "top of the rectangle"
            },
            {
                "name": "w",
                "type": "integer",
                "required": false,
                "description": "width of the rectangle"
            },
            {
                "name": "h",
                "type": "integer",
                "required": false,
                "description": "height of the rectangle"
            },
            {
                "name": "path",
                "type": "string",
                "required": false,
                "description": "an absolute file path the PNG is also written to"
            },
            {
                "name": "window",
                "type": "string",
                "required": false,
                "description": "the window's title, or a part of it only one window has"
            }
        ]
    },
    {
        "verb": "still",
        "tool": "desk_still",
        "description": "Waits until the screen holds still for hold_ms (still: true), or timeout_ms passes (still: false). Clocks, spinners and blinking carets do not count as change.",
        "args": [
            {
                "name": "timeout_ms",
                "type": "integer",
                "required": false,
                "description": "the polling deadline, default 600, at most 5000"
            },
            {
                "name": "hold_ms",
                "type": "integer",
                "required": false,
                "description": "how long no counted change must last, default 40"
            }
        ]
    },
    {
        "verb": "screen",
        "tool": "desk_screen",
        "description": "The screen's width and height in pixels: the desk coordinates that click, at, shot and element bounds use.",
        "args": []
    },
    {
        "verb": "computer_state",
        "tool": "desk_computer_state",
        "description": "For a vision agent: the windows frontmost first (geometry in screenshot pixels), modal dialogs the screen does not show, the elements [index, role, name, x, y, states?] of the frontmost app window (or of pid / window_id) with centres in screenshot pixels (at most 300; query filters them by name or role), and a JPEG screenshot of the whole screen scaled to max_edge. Password fields are blacked out. Refused with an app allowlist.",
        "args": [
            {
                "name": "session",
                "type": "string",
                "required": false,
                "description": "the session whose element indexes and screenshot scale to use; default: yours"
            },
            {
                "name": "pid",
                "type": "integer",
                "required": false,
                "description": "list the elements of this process's frontmost window"
            },
            {
                "name": "window_id",
                "type": "integer",
                "required": false,
                "description": "list the elements of this window (an id of the windows list)"
            },
            {
                "name": "query",
                "type": "string",
                "required": false,
                "description": "keep the elements whose name or role contains this, without case"
            },
            {
                "name": "max_edge",
                "type": "integer",
                "required": false,
                "description": "the screenshot's long edge in pixels, default 1024, 0 for full size"
            },
            {
                "name": "workspace_only",
                "type": "boolean",
                "required": false,
                "description": "only the current workspace's windows (on X11 the only ones shown)"
            }
        ]
    },
    {
        "verb": "computer_act",
        "tool": "desk_computer_act",
        "description": "For a vision agent: one action, or actions (a list of action objects) run in order up to the first failure, each waited out until the screen is still. Points are an element [index] of computer_state or x, y in screenshot pixels. Answers what each step did, the windows it opened, closed or brought to the front, typed N of M for type, and a new JPEG screenshot. Refused with an app allowlist.",
        "args": [
            {
                "name": "session",
                "type": "string",
                "required": false,
                "description": "the session whose element indexes and screenshot scale to use; default: yours"
            },
            {
                "name": "action",
                "type": "string",
                "required": false,
                "description": "what to do",
                "enum": [
                    "click",
                    "left_click",
                    "double_click",
                    "right_click",
                    "triple_click",
                    "type",
                    "key",
                    "hotkey",
                    "scroll",
                    "drag",
                    "wait",
                    "launch_app"
                ]
            },
            {
                "name": "element",
                "type": "integer",
                "required": false,
                "description": "an [index] of the session's latest computer_state"
            },
            {
                "name": "x",
                "type": "number",
                "required": false,
                "description": "x in screenshot pixels"
            },
            {
                "name": "y",
                "type": "number",
                "required": false,
                "description": "y in screenshot pixels"
            },
            {
                "name": "to_x",
                "type": "number",
                "required": false,
                "description": "drag: end x in screenshot pixels"
            },
            {
                "name": "to_y",
                "type": "number",
                "required": false,
                "description": "drag: end y in screenshot pixels"
            },
            {
                "name": "text",
                "type": "string",
                "required": false,
                "description": "type: the text"
            },
            {
                "name": "key",
                "type": "string",
                "required": false,
                "description": "key: a key or combination, e.g. ctrl+s"
            },
            {
                "name": "keys",
                "type": "string_array",
                "required": false,
                "description": "hotkey: the keys held together, e.g. [\"ctrl\", \"s\"]"
            },
            {
                "name": "direction",
                "type": "string",
                "required": false,
                "description": "scroll: which way (default down)",
                "enum": [
                    "up",
                    "down",
                    "left",
                    "right"
                ]
            },
            {
                "name": "amount",
                "type": "integer",
                "required": false,
                "description": "scroll: notches, default 3"
            },
            {
                "name": "app",
                "type": "string",
                "required": false,
                "description": "launch_app: the executable's name"
            },
            {
                "name": "button",
                "type": "string",
                "required": false,
                "description": "click: left (default) or right",
                "enum": [
                    "left",
                    "right"
                ]
            },
            {
                "name": "seconds",
                "type": "number",
                "required": false,
                "description": "wait: seconds, default 1"
            },
            {
                "name": "foreground",
                "type": "boolean",
                "required": false,
                "description": "send the input in the foreground (on X11 it always is)"
            },
            {
                "name": "max_edge",
                "type": "integer",
                "required": false,
                "description": "the screenshot's long edge in pixels, default 1024, 0 for full size"
            },
            {
                "name": "scale",
                "type": "number",
                "required": false,
                "description": "screen pixels per pixel of the screenshot your x, y are in (default: the session's latest)"
            },
            {
                "name": "actions",
                "type": "json",
                "required": false,
                "description": "a list of action objects ({action, element or x, y, ...}) instead of action"
            }
        ]
    },
    {
        "verb": "computer_end",
        "tool": "desk_computer_end",
        "description": "Ends a vision session: forgets its elements and screenshot scale, and refuses its name from now on. A caller whose default session ended gets a new default on its next call.",
        "args": [
            {
                "name": "session",
                "type": "string",
                "required": true,
                "description": "the session to end"
            }
        ]
    },
    {
        "verb": "computer_scale",
        "tool": "desk_computer_scale",
        "description": "scale: screen pixels per pixel of the session's latest screenshot, else of any session's latest (from says which).",
        "args": [
            {
                "name": "session",
                "type": "string",
                "required": false,
                "description": "the session whose element indexes and screenshot scale to use; default: yours"
            }
        ]
    },
    {
        "verb": "look",
        "tool": "desk_look",
        "description": "A JPEG of the whole screen scaled to max_edge, or of region (screenshot pixels of the session's latest screenshot) at full resolution with the mapping of its pixels to computer_act x,y. Password fields are blacked out.",
        "args": [
            {
                "name": "session",
                "type": "string",
                "required": false,
                "description": "the session whose element indexes and screenshot scale to use; default: yours"
            },
            {
                "name": "max_edge",
                "type": "integer",
                "required": false,
                "description": "the screenshot's long edge in pixels, default 1024, 0 for full size"
            },
            {
                "name": "workspace_only",
                "type": "boolean",
                "required": false,
                "description": "only the current workspace's windows (on X11 the only ones shown)"
            },
            {
                "name": "region",
                "type": "object",
                "required": false,
                "description": "{x, y, w, h} in screenshot pixels: that part at full resolution"
            }
        ]
    },
    {
        "verb": "title_at",
        "tool": "desk_title_at",
        "description": "title: whether the screen point (screen pixels) shows a window title, in a window manager's title bar or a desktop panel's button; where says what is there (title_bar, frame, window, panel, desktop, off_screen) and window whose.",
        "args": [
            {
                "name": "x",
                "type": "integer",
                "required": true,
                "description": "x in screen pixels"
            },
            {
                "name": "y",
                "type": "integer",
                "required": true,
                "description": "y in screen pixels"
            }
        ]
    }
];

/** @type {readonly {verb: string, tool: string, description: string, args: {name: string, type: string, required: boolean, description: string, enum?: string[]}[]}[]} */
export const MODELS = [
    {
        "verb": "decide",
        "tool": "model_decide",
        "description": "Asks a model yes/no and choice questions about a state; answers {answers: {key: {probability}} or {key: {choice, confidence, probabilities}}, served, usage}.",
        "args": [
            {
                "name": "state",
                "type": "json",
                "required": true,
                "description": "text, JSON, or a list of text and image_url (data:image/png;base64) parts"
            },
            {
                "name": "questions",
                "type": "object",
                "required": true,
                "description": "{key: {type: \"yesno\"|\"choice\", instructions, criteria?, choices?}}"
            },
            {
                "name": "image",
                "type": "boolean",
                "required": false,
                "description": "the state holds a screenshot (the verify model answers)"
            },
            {
                "name": "timeout_ms",
                "type": "integer",
                "required": false,
                "description": "caps the configured timeout"
            }
        ]
    },
    {
        "verb": "ask",
        "tool": "model_ask",
        "description": "Asks a model, with PNG screenshots if given; answers {text, served, usage}.",
        "args": [
            {
                "name": "prompt",
                "type": "string",
                "required": true,
                "description": "the question"
            },
            {
                "name": "images",
                "type": "string_array",
                "required": false,
                "description": "base64 PNGs"
            },
            {
                "name": "timeout_ms",
                "type": "integer",
                "required": false,
                "description": "caps the configured timeout"
            }
        ]
    },
    {
        "verb": "ground",
        "tool": "model_ground",
        "description": "Finds a target on a PNG with a model; answers {x, y} in desk coordinates within area, served, usage.",
        "args": [
            {
                "name": "png_b64",
                "type": "string",
                "required": true,
                "description": "base64 PNG"
            },
            {
                "name": "target",
                "type": "string",
                "required": true,
                "description": "what to find"
            },
            {
                "name": "area",
                "type": "object",
                "required": true,
                "description": "{left?, top?, width, height}: the desk rectangle the PNG shows, not its size"
            },
            {
                "name": "timeout_ms",
                "type": "integer",
                "required": false,
                "description": "caps the configured timeout"
            }
        ]
    }
];
