--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: release_fixture; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA release_fixture;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: audits; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.audits (
    id bigint NOT NULL,
    admin_id bigint NOT NULL,
    admin_name text NOT NULL,
    action text NOT NULL,
    target text NOT NULL,
    game_id bigint DEFAULT 0 NOT NULL,
    reason text NOT NULL,
    created_at timestamp with time zone
);


--
-- Name: audits_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.audits_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: audits_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.audits_id_seq OWNED BY release_fixture.audits.id;


--
-- Name: blocks; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.blocks (
    user_id bigint NOT NULL,
    blocked_id bigint NOT NULL,
    created_at timestamp with time zone
);


--
-- Name: chat_messages; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.chat_messages (
    id bigint NOT NULL,
    game_id bigint NOT NULL,
    user_id bigint NOT NULL,
    name text NOT NULL,
    text text NOT NULL,
    hidden boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: chat_messages_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.chat_messages_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: chat_messages_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.chat_messages_id_seq OWNED BY release_fixture.chat_messages.id;


--
-- Name: chat_reports; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.chat_reports (
    id bigint NOT NULL,
    message_id bigint NOT NULL,
    reporter_id bigint NOT NULL,
    closed boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: chat_reports_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.chat_reports_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: chat_reports_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.chat_reports_id_seq OWNED BY release_fixture.chat_reports.id;


--
-- Name: games; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.games (
    id bigint NOT NULL,
    status text NOT NULL,
    num_players bigint NOT NULL,
    creator_id bigint NOT NULL,
    invite_token text NOT NULL,
    setup text,
    first bigint,
    version bigint DEFAULT 0 NOT NULL,
    turn_hours bigint DEFAULT 0 NOT NULL,
    stand_in text DEFAULT 'medium'::text NOT NULL,
    private boolean DEFAULT false NOT NULL,
    invites bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone,
    updated_at timestamp with time zone,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    end_reason text DEFAULT ''::text NOT NULL,
    rematch_of bigint DEFAULT 0 NOT NULL,
    rematch_id bigint,
    last_chat bigint DEFAULT 0 NOT NULL,
    scored boolean DEFAULT false NOT NULL
);


--
-- Name: games_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.games_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: games_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.games_id_seq OWNED BY release_fixture.games.id;


--
-- Name: invitations; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.invitations (
    id bigint NOT NULL,
    creator_id bigint NOT NULL,
    invitee_id bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: invitations_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.invitations_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: invitations_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.invitations_id_seq OWNED BY release_fixture.invitations.id;


--
-- Name: limits; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.limits (
    key character varying(200) NOT NULL,
    tokens numeric DEFAULT 0 NOT NULL,
    tries bigint DEFAULT 0 NOT NULL,
    last timestamp with time zone
);


--
-- Name: log_entries; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.log_entries (
    id bigint NOT NULL,
    game_id bigint NOT NULL,
    seq bigint NOT NULL,
    kind text NOT NULL,
    seat bigint NOT NULL,
    turn bigint NOT NULL,
    user_id bigint,
    version bigint DEFAULT 0 NOT NULL,
    timeout boolean DEFAULT false NOT NULL,
    auto boolean DEFAULT false NOT NULL,
    stand boolean DEFAULT false NOT NULL,
    data text NOT NULL,
    created_at timestamp with time zone
);


--
-- Name: log_entries_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.log_entries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: log_entries_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.log_entries_id_seq OWNED BY release_fixture.log_entries.id;


--
-- Name: logins; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.logins (
    token character varying(64) NOT NULL,
    user_id bigint NOT NULL,
    version bigint NOT NULL,
    device text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL
);


--
-- Name: mails; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.mails (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    game_id bigint DEFAULT 0 NOT NULL,
    kind text NOT NULL,
    channel text DEFAULT 'mail'::text NOT NULL,
    text text NOT NULL,
    format text,
    args text,
    "to" text,
    key text,
    status text NOT NULL,
    next_attempt timestamp with time zone NOT NULL,
    attempts bigint DEFAULT 0 NOT NULL,
    last_error text,
    created_at timestamp with time zone,
    sent_at timestamp with time zone
);


--
-- Name: mails_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.mails_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: mails_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.mails_id_seq OWNED BY release_fixture.mails.id;


--
-- Name: name_holds; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.name_holds (
    name character varying(32) NOT NULL,
    name_key character varying(100) NOT NULL,
    until timestamp with time zone NOT NULL
);


--
-- Name: notifications; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.notifications (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    game_id bigint,
    kind text NOT NULL,
    text text NOT NULL,
    format text,
    args text,
    read boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone
);


--
-- Name: notifications_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.notifications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: notifications_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.notifications_id_seq OWNED BY release_fixture.notifications.id;


--
-- Name: push_subs; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.push_subs (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    endpoint text NOT NULL,
    p256dh text NOT NULL,
    auth text NOT NULL,
    device text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone,
    failures bigint DEFAULT 0 NOT NULL,
    failing_since timestamp with time zone,
    off_at timestamp with time zone
);


--
-- Name: push_subs_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.push_subs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: push_subs_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.push_subs_id_seq OWNED BY release_fixture.push_subs.id;


--
-- Name: seats; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.seats (
    id bigint NOT NULL,
    game_id bigint NOT NULL,
    slot bigint NOT NULL,
    index bigint DEFAULT '-1'::integer NOT NULL,
    user_id bigint,
    bot text,
    name text,
    invited_id bigint,
    resigned_id bigint,
    abandoned boolean DEFAULT false NOT NULL,
    timeouts bigint DEFAULT 0 NOT NULL,
    waiting_since timestamp with time zone,
    deadline timestamp with time zone,
    remind_at timestamp with time zone,
    reminded boolean DEFAULT false NOT NULL,
    seen_seq bigint DEFAULT 0 NOT NULL,
    seen_at timestamp with time zone,
    chat_unread bigint DEFAULT 0 NOT NULL,
    chat_muted boolean DEFAULT false NOT NULL,
    place bigint DEFAULT 0 NOT NULL,
    score bigint DEFAULT 0 NOT NULL,
    rated_from numeric DEFAULT 0 NOT NULL,
    rated_to numeric DEFAULT 0 NOT NULL,
    timed_out bigint DEFAULT 0 NOT NULL
);


--
-- Name: seats_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.seats_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: seats_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.seats_id_seq OWNED BY release_fixture.seats.id;


--
-- Name: sessions; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.sessions (
    token character varying(64) NOT NULL,
    data bytea NOT NULL,
    expiry timestamp with time zone NOT NULL
);


--
-- Name: settings; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.settings (
    key text NOT NULL,
    value bytea NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: release_fixture; Owner: -
--

CREATE TABLE release_fixture.users (
    id bigint NOT NULL,
    username character varying(32) NOT NULL,
    name_key character varying(100),
    password_hash bytea NOT NULL,
    created_at timestamp with time zone,
    lang text DEFAULT ''::text NOT NULL,
    email text,
    email_verified boolean DEFAULT false NOT NULL,
    app_news bigint DEFAULT 95 NOT NULL,
    mail_news bigint DEFAULT 95 NOT NULL,
    push_news bigint DEFAULT 127 NOT NULL,
    hook_news bigint DEFAULT 127 NOT NULL,
    digest_news bigint DEFAULT 0 NOT NULL,
    hook_url text DEFAULT ''::text NOT NULL,
    hook_secret bytea,
    last_digest_at timestamp with time zone,
    digest_hour bigint DEFAULT 8 NOT NULL,
    quiet_from bigint DEFAULT 0 NOT NULL,
    quiet_to bigint DEFAULT 0 NOT NULL,
    time_zone text DEFAULT ''::text NOT NULL,
    vacation_until timestamp with time zone,
    vacation_year bigint DEFAULT 0 NOT NULL,
    vacation_days bigint DEFAULT 0 NOT NULL,
    auto_decide boolean DEFAULT false NOT NULL,
    board_size text DEFAULT ''::text NOT NULL,
    token_version bigint DEFAULT 0 NOT NULL,
    admin boolean DEFAULT false NOT NULL,
    banned_at timestamp with time zone,
    ban_reason text DEFAULT ''::text NOT NULL,
    rating numeric DEFAULT 1500 NOT NULL,
    rating_dev numeric DEFAULT 350 NOT NULL,
    rating_vol numeric DEFAULT 0.06 NOT NULL,
    rated_games bigint DEFAULT 0 NOT NULL,
    hook_failures bigint DEFAULT 0 NOT NULL,
    hook_failing_since timestamp with time zone,
    hook_off_at timestamp with time zone
);


--
-- Name: users_id_seq; Type: SEQUENCE; Schema: release_fixture; Owner: -
--

CREATE SEQUENCE release_fixture.users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: users_id_seq; Type: SEQUENCE OWNED BY; Schema: release_fixture; Owner: -
--

ALTER SEQUENCE release_fixture.users_id_seq OWNED BY release_fixture.users.id;


--
-- Name: audits id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.audits ALTER COLUMN id SET DEFAULT nextval('release_fixture.audits_id_seq'::regclass);


--
-- Name: chat_messages id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.chat_messages ALTER COLUMN id SET DEFAULT nextval('release_fixture.chat_messages_id_seq'::regclass);


--
-- Name: chat_reports id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.chat_reports ALTER COLUMN id SET DEFAULT nextval('release_fixture.chat_reports_id_seq'::regclass);


--
-- Name: games id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.games ALTER COLUMN id SET DEFAULT nextval('release_fixture.games_id_seq'::regclass);


--
-- Name: invitations id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.invitations ALTER COLUMN id SET DEFAULT nextval('release_fixture.invitations_id_seq'::regclass);


--
-- Name: log_entries id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.log_entries ALTER COLUMN id SET DEFAULT nextval('release_fixture.log_entries_id_seq'::regclass);


--
-- Name: mails id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.mails ALTER COLUMN id SET DEFAULT nextval('release_fixture.mails_id_seq'::regclass);


--
-- Name: notifications id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.notifications ALTER COLUMN id SET DEFAULT nextval('release_fixture.notifications_id_seq'::regclass);


--
-- Name: push_subs id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.push_subs ALTER COLUMN id SET DEFAULT nextval('release_fixture.push_subs_id_seq'::regclass);


--
-- Name: seats id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.seats ALTER COLUMN id SET DEFAULT nextval('release_fixture.seats_id_seq'::regclass);


--
-- Name: users id; Type: DEFAULT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.users ALTER COLUMN id SET DEFAULT nextval('release_fixture.users_id_seq'::regclass);


--
-- Data for Name: audits; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: blocks; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: chat_messages; Type: TABLE DATA; Schema: release_fixture; Owner: -
--

INSERT INTO release_fixture.chat_messages VALUES (1, 1, 1, 'ana', 'good luck', false, '2026-12-06 00:41:14.275084+00');


--
-- Data for Name: chat_reports; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: games; Type: TABLE DATA; Schema: release_fixture; Owner: -
--

INSERT INTO release_fixture.games VALUES (1, 'active', 2, 1, '9ab49d0a6024fdc862f054dfbf8d3fd3', '{"jungle":["W","M3","P1","G2","P2","T","S","P1","T","T","P2","G1","M2","M4","M3","P1","M3","W","T"],"workers":[["2101","1111","2101","2101","3100","2101","1111","3001","1111","2101","1111"],["1111","2101","3100","1111","3001","2101","1111","1111","2101","2101","2101"]]}', 0, 3, 0, 'medium', false, 0, '2026-12-06 00:41:14.24948+00', '2026-12-06 00:41:14.272793+00', '2026-12-06 00:41:14.261102+00', NULL, '', 0, NULL, 1, false);


--
-- Data for Name: invitations; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: limits; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: log_entries; Type: TABLE DATA; Schema: release_fixture; Owner: -
--

INSERT INTO release_fixture.log_entries VALUES (1, 1, 0, 'turn', 0, 0, 1, 2, false, false, false, '{"p":0,"tile":"1111","at":[0,-1],"acts":[{"tile":[0,-1],"side":"S","use":1}]}', '2026-12-06 00:41:14.266953+00');
INSERT INTO release_fixture.log_entries VALUES (2, 1, 1, 'turn', 1, 1, 2, 3, false, false, false, '{"p":1,"tile":"1111","at":[-1,0],"fills":[{"at":[-1,-1],"tile":"W"}],"acts":[{"tile":[-1,0],"side":"E","use":1},{"tile":[-1,0],"side":"N","use":1}]}', '2026-12-06 00:41:14.271755+00');


--
-- Data for Name: logins; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: mails; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: name_holds; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: notifications; Type: TABLE DATA; Schema: release_fixture; Owner: -
--

INSERT INTO release_fixture.notifications VALUES (1, 1, 1, 'started', 'Game 1 has started.', 'Game %d has started.', '[1]', false, '2026-12-06 00:41:14.262205+00');
INSERT INTO release_fixture.notifications VALUES (2, 1, 1, 'turn', 'It is your turn in game 1.', 'It is your turn in game %d.', '[1]', false, '2026-12-06 00:41:14.264037+00');
INSERT INTO release_fixture.notifications VALUES (3, 2, 1, 'started', 'Game 1 has started.', 'Game %d has started.', '[1]', false, '2026-12-06 00:41:14.264396+00');
INSERT INTO release_fixture.notifications VALUES (4, 2, 1, 'turn', 'It is your turn in game 1.', 'It is your turn in game %d.', '[1]', false, '2026-12-06 00:41:14.2705+00');
INSERT INTO release_fixture.notifications VALUES (5, 1, 1, 'turn', 'It is your turn in game 1.', 'It is your turn in game %d.', '[1]', false, '2026-12-06 00:41:14.274272+00');


--
-- Data for Name: push_subs; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: seats; Type: TABLE DATA; Schema: release_fixture; Owner: -
--

INSERT INTO release_fixture.seats VALUES (1, 1, 0, 0, 1, '', 'ana', NULL, NULL, false, 0, '2026-12-06 00:41:14.271755+00', NULL, NULL, false, 0, NULL, 0, false, 0, 0, 0, 0, 0);
INSERT INTO release_fixture.seats VALUES (2, 1, 1, 1, 2, '', 'bob', NULL, NULL, false, 0, NULL, NULL, NULL, false, 0, NULL, 1, false, 0, 0, 0, 0, 0);


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: settings; Type: TABLE DATA; Schema: release_fixture; Owner: -
--



--
-- Data for Name: users; Type: TABLE DATA; Schema: release_fixture; Owner: -
--

INSERT INTO release_fixture.users VALUES (1, 'ana', 'ana', '\x243261243034244e7153726c5576725a685a4c6159697a4d737269694f775a4c54336f6631367441734445784a39464e636d6879426e59687153676d', '2026-12-06 00:41:14.234182+00', '', '', false, 95, 95, 127, 127, 0, '', NULL, NULL, 8, 0, 0, '', NULL, 0, 0, false, '', 0, false, NULL, '', 1500, 350, 0.06, 0, 0, NULL, NULL);
INSERT INTO release_fixture.users VALUES (2, 'bob', 'bob', '\x243261243034244c7961386566624e4b71704a526d70374c73326433756142314c5950767550546767364e6465586d446b764267454d6a2e644d752e', '2026-12-06 00:41:14.238406+00', '', '', false, 95, 95, 127, 127, 0, '', NULL, NULL, 8, 0, 0, '', NULL, 0, 0, false, '', 0, false, NULL, '', 1500, 350, 0.06, 0, 0, NULL, NULL);
INSERT INTO release_fixture.users VALUES (3, 'carol', 'carol', '\x24326124303424344a655352666e46306e73634b6d5a3938616f694b7554534f31394e327447785672745a6c35454d323873476755454b78652f7243', '2026-12-06 00:41:14.241593+00', '', '', false, 95, 95, 127, 127, 0, '', NULL, NULL, 8, 0, 0, '', NULL, 0, 0, false, '', 0, false, NULL, '', 1500, 350, 0.06, 0, 0, NULL, NULL);


--
-- Name: audits_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.audits_id_seq', 1, false);


--
-- Name: chat_messages_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.chat_messages_id_seq', 1, true);


--
-- Name: chat_reports_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.chat_reports_id_seq', 1, false);


--
-- Name: games_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.games_id_seq', 1, true);


--
-- Name: invitations_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.invitations_id_seq', 1, false);


--
-- Name: log_entries_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.log_entries_id_seq', 2, true);


--
-- Name: mails_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.mails_id_seq', 1, false);


--
-- Name: notifications_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.notifications_id_seq', 5, true);


--
-- Name: push_subs_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.push_subs_id_seq', 1, false);


--
-- Name: seats_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.seats_id_seq', 2, true);


--
-- Name: users_id_seq; Type: SEQUENCE SET; Schema: release_fixture; Owner: -
--

SELECT pg_catalog.setval('release_fixture.users_id_seq', 3, true);


--
-- Name: audits audits_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.audits
    ADD CONSTRAINT audits_pkey PRIMARY KEY (id);


--
-- Name: blocks blocks_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.blocks
    ADD CONSTRAINT blocks_pkey PRIMARY KEY (user_id, blocked_id);


--
-- Name: chat_messages chat_messages_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.chat_messages
    ADD CONSTRAINT chat_messages_pkey PRIMARY KEY (id);


--
-- Name: chat_reports chat_reports_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.chat_reports
    ADD CONSTRAINT chat_reports_pkey PRIMARY KEY (id);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (id);


--
-- Name: invitations invitations_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.invitations
    ADD CONSTRAINT invitations_pkey PRIMARY KEY (id);


--
-- Name: limits limits_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.limits
    ADD CONSTRAINT limits_pkey PRIMARY KEY (key);


--
-- Name: log_entries log_entries_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.log_entries
    ADD CONSTRAINT log_entries_pkey PRIMARY KEY (id);


--
-- Name: logins logins_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.logins
    ADD CONSTRAINT logins_pkey PRIMARY KEY (token);


--
-- Name: mails mails_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.mails
    ADD CONSTRAINT mails_pkey PRIMARY KEY (id);


--
-- Name: name_holds name_holds_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.name_holds
    ADD CONSTRAINT name_holds_pkey PRIMARY KEY (name);


--
-- Name: notifications notifications_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (id);


--
-- Name: push_subs push_subs_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.push_subs
    ADD CONSTRAINT push_subs_pkey PRIMARY KEY (id);


--
-- Name: seats seats_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.seats
    ADD CONSTRAINT seats_pkey PRIMARY KEY (id);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (token);


--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (key);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: idx_chat_game; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_chat_game ON release_fixture.chat_messages USING btree (game_id);


--
-- Name: idx_chat_report; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_chat_report ON release_fixture.chat_reports USING btree (message_id, reporter_id);


--
-- Name: idx_chat_reports_closed; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_chat_reports_closed ON release_fixture.chat_reports USING btree (closed);


--
-- Name: idx_chat_user_created; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_chat_user_created ON release_fixture.chat_messages USING btree (user_id, created_at);


--
-- Name: idx_games_invite_token; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_games_invite_token ON release_fixture.games USING btree (invite_token);


--
-- Name: idx_games_rematch_of; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_games_rematch_of ON release_fixture.games USING btree (rematch_of);


--
-- Name: idx_games_scored; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_games_scored ON release_fixture.games USING btree (status, scored);


--
-- Name: idx_games_status; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_games_status ON release_fixture.games USING btree (status);


--
-- Name: idx_invitations_creator; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_invitations_creator ON release_fixture.invitations USING btree (creator_id, created_at);


--
-- Name: idx_invitations_invitee_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_invitations_invitee_id ON release_fixture.invitations USING btree (invitee_id);


--
-- Name: idx_log_game_seq; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_log_game_seq ON release_fixture.log_entries USING btree (game_id, seq);


--
-- Name: idx_logins_last_seen; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_logins_last_seen ON release_fixture.logins USING btree (last_seen);


--
-- Name: idx_logins_user_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_logins_user_id ON release_fixture.logins USING btree (user_id);


--
-- Name: idx_mail_due; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_mail_due ON release_fixture.mails USING btree (status, next_attempt);


--
-- Name: idx_mail_kind_created; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_mail_kind_created ON release_fixture.mails USING btree (kind, created_at);


--
-- Name: idx_mails_key; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_mails_key ON release_fixture.mails USING btree (key);


--
-- Name: idx_mails_user_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_mails_user_id ON release_fixture.mails USING btree (user_id);


--
-- Name: idx_name_holds_name_key; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_name_holds_name_key ON release_fixture.name_holds USING btree (name_key);


--
-- Name: idx_name_holds_until; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_name_holds_until ON release_fixture.name_holds USING btree (until);


--
-- Name: idx_notifications_game_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_notifications_game_id ON release_fixture.notifications USING btree (game_id);


--
-- Name: idx_notifications_user_read; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_notifications_user_read ON release_fixture.notifications USING btree (user_id, read);


--
-- Name: idx_push_subs_endpoint; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_push_subs_endpoint ON release_fixture.push_subs USING btree (endpoint);


--
-- Name: idx_push_subs_user_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_push_subs_user_id ON release_fixture.push_subs USING btree (user_id);


--
-- Name: idx_seats_deadline; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_seats_deadline ON release_fixture.seats USING btree (deadline);


--
-- Name: idx_seats_game_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_seats_game_id ON release_fixture.seats USING btree (game_id);


--
-- Name: idx_seats_invited_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_seats_invited_id ON release_fixture.seats USING btree (invited_id);


--
-- Name: idx_seats_remind_at; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_seats_remind_at ON release_fixture.seats USING btree (remind_at);


--
-- Name: idx_seats_resigned_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_seats_resigned_id ON release_fixture.seats USING btree (resigned_id);


--
-- Name: idx_seats_user_chat; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_seats_user_chat ON release_fixture.seats USING btree (user_id, chat_unread);


--
-- Name: idx_seats_user_id; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_seats_user_id ON release_fixture.seats USING btree (user_id);


--
-- Name: idx_sessions_expiry; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE INDEX idx_sessions_expiry ON release_fixture.sessions USING btree (expiry);


--
-- Name: idx_users_name_key; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_users_name_key ON release_fixture.users USING btree (name_key);


--
-- Name: idx_users_username; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_users_username ON release_fixture.users USING btree (username);


--
-- Name: idx_users_username_lower; Type: INDEX; Schema: release_fixture; Owner: -
--

CREATE UNIQUE INDEX idx_users_username_lower ON release_fixture.users USING btree (lower((username)::text));


--
-- Name: seats fk_games_seats; Type: FK CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.seats
    ADD CONSTRAINT fk_games_seats FOREIGN KEY (game_id) REFERENCES release_fixture.games(id) ON DELETE CASCADE;


--
-- Name: seats fk_seats_user; Type: FK CONSTRAINT; Schema: release_fixture; Owner: -
--

ALTER TABLE ONLY release_fixture.seats
    ADD CONSTRAINT fk_seats_user FOREIGN KEY (user_id) REFERENCES release_fixture.users(id) ON DELETE SET NULL;


--
-- PostgreSQL database dump complete
--


