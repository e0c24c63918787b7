--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

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

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: taskgate_instance; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_instance (
    id character varying(64) NOT NULL,
    grid_member character varying(64),
    host character varying(255) NOT NULL,
    last_beat timestamp(6) with time zone,
    parked text,
    started_at timestamp(6) with time zone,
    version character varying(64) NOT NULL
);


--
-- Name: taskgate_minute_count; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_minute_count (
    id character varying(700) NOT NULL,
    calls_granted bigint NOT NULL,
    calls_refused bigint NOT NULL,
    calls_waited bigint NOT NULL,
    completed bigint NOT NULL,
    epoch_minute bigint NOT NULL,
    failed bigint NOT NULL,
    failed_open bigint NOT NULL,
    instance character varying(64) NOT NULL,
    parked bigint NOT NULL,
    queue character varying(255) NOT NULL,
    rejected_horizon bigint NOT NULL,
    rejected_discarded bigint NOT NULL,
    started bigint NOT NULL,
    throttle_dropped bigint NOT NULL,
    throttle_waited bigint NOT NULL,
    type character varying(255) NOT NULL
);


--
-- Name: taskgate_rate_override; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_rate_override (
    id character varying(600) NOT NULL,
    burst integer NOT NULL,
    rate_key character varying(300),
    period_nanos bigint NOT NULL,
    permits integer NOT NULL,
    task_type character varying(255) NOT NULL,
    updated_at timestamp(6) with time zone
);


--
-- Name: taskgate_task; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_task (
    id character varying(36) NOT NULL,
    attempt integer NOT NULL,
    created_at timestamp(6) with time zone,
    last_error character varying(2000),
    owner_instance character varying(64),
    payload text NOT NULL,
    queue character varying(255) NOT NULL,
    rate_key character varying(1024),
    recurrence character varying(1000),
    runs bigint NOT NULL,
    scheduled_at timestamp(6) with time zone,
    status character varying(16) NOT NULL,
    task_key character varying(255),
    type character varying(255) NOT NULL,
    updated_at timestamp(6) with time zone,
    version bigint NOT NULL
);


--
-- Name: taskgate_task_audit; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_task_audit (
    id character varying(36) NOT NULL,
    at timestamp(6) with time zone,
    attempt integer NOT NULL,
    detail character varying(2000),
    from_status character varying(16),
    task_id character varying(36) NOT NULL,
    task_version bigint NOT NULL,
    to_status character varying(16) NOT NULL
);


--
-- Name: taskgate_throttler; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_throttler (
    name character varying(128) NOT NULL,
    buckets integer NOT NULL,
    capacity integer NOT NULL,
    interval_ms bigint NOT NULL,
    kind character varying(32) NOT NULL,
    limit_value integer NOT NULL,
    max_limit integer NOT NULL,
    min_limit integer NOT NULL,
    resource_id character varying(100) NOT NULL,
    updated_at timestamp(6) with time zone
);


--
-- Name: taskgate_throttler_change; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_throttler_change (
    id character varying(36) NOT NULL,
    after_value character varying(255),
    changed_at timestamp(6) with time zone,
    before_value character varying(255),
    changed_by character varying(128) NOT NULL,
    kind character varying(32) NOT NULL,
    resource_id character varying(100) NOT NULL
);


--
-- Name: taskgate_window_count; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taskgate_window_count (
    id character varying(255) NOT NULL,
    bucket_start bigint NOT NULL,
    resource character varying(128) NOT NULL,
    starts integer NOT NULL,
    sub_window character varying(100)
);


--
-- Data for Name: taskgate_instance; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.taskgate_instance VALUES ('vm', NULL, 'vm', '2026-12-07 08:38:41.205112+00', 'p1 0 0', '2026-12-07 08:37:31.025661+00', '0.1.0-SNAPSHOT');


--
-- Data for Name: taskgate_minute_count; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.taskgate_minute_count VALUES ('vm|29943877|io.taskgate.it.upgrade.Upgrade$Plain|default', 0, 0, 0, 5, 29943877, 0, 0, 'vm', 0, 'default', 0, 0, 6, 0, 0, 'io.taskgate.it.upgrade.Upgrade$Plain');
INSERT INTO public.taskgate_minute_count VALUES ('vm|29943877|io.taskgate.it.upgrade.Upgrade$Slot|default', 0, 0, 0, 0, 29943877, 0, 0, 'vm', 0, 'default', 0, 0, 1, 0, 2, 'io.taskgate.it.upgrade.Upgrade$Slot');
INSERT INTO public.taskgate_minute_count VALUES ('vm|29943877|io.taskgate.it.upgrade.Upgrade$Step|default', 0, 0, 0, 0, 29943877, 0, 0, 'vm', 0, 'default', 0, 0, 1, 0, 2, 'io.taskgate.it.upgrade.Upgrade$Step');
INSERT INTO public.taskgate_minute_count VALUES ('vm|29943877|io.taskgate.it.upgrade.Upgrade$Tick|default', 0, 0, 0, 0, 29943877, 0, 0, 'vm', 0, 'default', 0, 0, 9, 0, 0, 'io.taskgate.it.upgrade.Upgrade$Tick');
INSERT INTO public.taskgate_minute_count VALUES ('vm|29943878|io.taskgate.it.upgrade.Upgrade$Tick|default', 0, 0, 0, 0, 29943878, 0, 0, 'vm', 0, 'default', 0, 0, 14, 0, 0, 'io.taskgate.it.upgrade.Upgrade$Tick');


--
-- Data for Name: taskgate_rate_override; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: taskgate_task; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.taskgate_task VALUES ('79ffabe8-f800-4141-b5f0-f04414dc55e7', 1, '2026-12-07 08:37:33.338871+00', NULL, 'vm', '{"id":"plain-2","workMillis":1}', 'default', NULL, NULL, 1, '2026-12-07 08:37:33.338871+00', 'COMPLETED', NULL, 'io.taskgate.it.upgrade.Upgrade$Plain', '2026-12-07 08:37:33.362311+00', 2);
INSERT INTO public.taskgate_task VALUES ('236d54ce-9550-4a58-af8a-4b3a7ad144aa', 1, '2026-12-07 08:37:33.180446+00', NULL, 'vm', '{"id":"plain-0","workMillis":1}', 'default', NULL, NULL, 1, '2026-12-07 08:37:33.180446+00', 'COMPLETED', NULL, 'io.taskgate.it.upgrade.Upgrade$Plain', '2026-12-07 08:37:33.36091+00', 2);
INSERT INTO public.taskgate_task VALUES ('bd5f9b54-4eae-4b8f-b78b-dfa3b3e87fa6', 1, '2026-12-07 08:37:33.275218+00', NULL, 'vm', '{"id":"plain-1","workMillis":1}', 'default', NULL, NULL, 1, '2026-12-07 08:37:33.275218+00', 'COMPLETED', NULL, 'io.taskgate.it.upgrade.Upgrade$Plain', '2026-12-07 08:37:33.355216+00', 2);
INSERT INTO public.taskgate_task VALUES ('4f509899-2d3e-4954-8b0e-1c9e40ac0209', 1, '2026-12-07 08:37:33.375326+00', NULL, 'vm', '{"id":"plain-3","workMillis":1}', 'default', NULL, NULL, 1, '2026-12-07 08:37:33.375326+00', 'COMPLETED', NULL, 'io.taskgate.it.upgrade.Upgrade$Plain', '2026-12-07 08:37:33.400129+00', 2);
INSERT INTO public.taskgate_task VALUES ('2c707038-9c88-473a-8fb8-6c248a77e80f', 1, '2026-12-07 08:37:33.408108+00', NULL, 'vm', '{"id":"plain-4","workMillis":1}', 'default', NULL, NULL, 1, '2026-12-07 08:37:33.408108+00', 'COMPLETED', NULL, 'io.taskgate.it.upgrade.Upgrade$Plain', '2026-12-07 08:37:33.422068+00', 2);
INSERT INTO public.taskgate_task VALUES ('bda9b759-107e-464b-9e2d-73ef3778c918', 1, '2026-12-07 08:37:33.4835+00', NULL, 'vm', '{"id":"step-1","orderId":"o-1","workMillis":600000}', 'default', NULL, NULL, 0, '2026-12-07 08:37:33.4835+00', 'IN_PROGRESS', NULL, 'io.taskgate.it.upgrade.Upgrade$Step', '2026-12-07 08:37:33.514992+00', 1);
INSERT INTO public.taskgate_task VALUES ('ec4c3e67-1c26-4e1c-805d-0df7bfce1328', 1, '2026-12-07 08:37:33.510447+00', NULL, 'vm', '{"id":"slot-1","workMillis":600000}', 'default', NULL, NULL, 0, '2026-12-07 08:37:33.510447+00', 'IN_PROGRESS', NULL, 'io.taskgate.it.upgrade.Upgrade$Slot', '2026-12-07 08:37:33.525176+00', 1);
INSERT INTO public.taskgate_task VALUES ('ac279990-f313-4957-a894-4243bff820ce', 1, '2026-12-07 08:37:33.541139+00', NULL, 'vm', '{"id":"long","workMillis":600000}', 'default', NULL, NULL, 0, '2026-12-07 08:37:33.541139+00', 'IN_PROGRESS', NULL, 'io.taskgate.it.upgrade.Upgrade$Plain', '2026-12-07 08:37:33.545+00', 1);
INSERT INTO public.taskgate_task VALUES ('fa2dcd32-236d-4a7a-b558-b746fa504adc', 0, '2026-12-07 08:37:33.556905+00', NULL, 'vm', '{"id":"step-2","orderId":"o-1","workMillis":20}', 'default', NULL, NULL, 0, '2026-12-07 08:37:33.556905+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Step', '2026-12-07 08:37:33.556905+00', 0);
INSERT INTO public.taskgate_task VALUES ('f5209fb2-b66e-41d7-9d21-cce3a82b43d2', 0, '2026-12-07 08:37:33.583086+00', NULL, 'vm', '{"id":"step-3","orderId":"o-1","workMillis":20}', 'default', NULL, NULL, 0, '2026-12-07 08:37:33.583086+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Step', '2026-12-07 08:37:33.583086+00', 0);
INSERT INTO public.taskgate_task VALUES ('699f0709-63c4-4e79-8ba8-864b35dde1eb', 0, '2026-12-07 08:37:33.606795+00', NULL, 'vm', '{"id":"slot-2","workMillis":20}', 'default', NULL, NULL, 0, '2026-12-07 08:37:33.606795+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Slot', '2026-12-07 08:37:33.606795+00', 0);
INSERT INTO public.taskgate_task VALUES ('4d7796ec-a184-466c-88ef-7965807bf1eb', 0, '2026-12-07 08:37:33.622779+00', NULL, 'vm', '{"id":"slot-3","workMillis":20}', 'default', NULL, NULL, 0, '2026-12-07 08:37:33.622779+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Slot', '2026-12-07 08:37:33.622779+00', 0);
INSERT INTO public.taskgate_task VALUES ('5f027f6e-6f95-4d30-b4d5-7c0982b806b5', 0, '2026-12-07 08:37:33.63613+00', NULL, 'vm', '{"id":"later","workMillis":1}', 'default', NULL, NULL, 0, '2026-12-07 08:39:33.63613+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Plain', '2026-12-07 08:37:33.63613+00', 0);
INSERT INTO public.taskgate_task VALUES ('05d8a0ac-9d55-433f-a017-23e2dfc26ede', 0, '2026-12-07 08:37:33.437406+00', NULL, 'vm', '{"id":"tick"}', 'default', NULL, 'every=PT3S', 26, '2026-12-07 08:38:51.437406+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Tick', '2026-12-07 08:38:48.448616+00', 52);
INSERT INTO public.taskgate_task VALUES ('6f36f7ca-e562-4505-b15b-68f83e660f11', 0, '2026-12-07 08:38:48.747195+00', NULL, 'vm', '{"id":"paced-1","key":"acct-1"}', 'default', 'acct-1', NULL, 0, '2026-12-07 08:38:48.747195+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Paced', '2026-12-07 08:38:48.747195+00', 0);
INSERT INTO public.taskgate_task VALUES ('e92df0b4-8657-4c74-b9b4-6fb126507a13', 1, '2026-12-07 08:38:48.684369+00', NULL, 'vm', '{"id":"paced-0","key":"acct-1"}', 'default', 'acct-1', NULL, 1, '2026-12-07 08:38:48.684369+00', 'COMPLETED', NULL, 'io.taskgate.it.upgrade.Upgrade$Paced', '2026-12-07 08:38:48.776111+00', 2);
INSERT INTO public.taskgate_task VALUES ('5f3d513f-029c-4a4e-b246-6219b71a2430', 0, '2026-12-07 08:38:48.78741+00', NULL, 'vm', '{"id":"paced-2","key":"acct-1"}', 'default', 'acct-1', NULL, 0, '2026-12-07 08:38:48.78741+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Paced', '2026-12-07 08:38:48.78741+00', 0);
INSERT INTO public.taskgate_task VALUES ('27bfaa45-0e48-4c55-99fd-f991c4b0f71f', 0, '2026-12-07 08:38:48.82045+00', NULL, 'vm', '{"id":"paced-3","key":"acct-1"}', 'default', 'acct-1', NULL, 0, '2026-12-07 08:38:48.82045+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Paced', '2026-12-07 08:38:48.82045+00', 0);
INSERT INTO public.taskgate_task VALUES ('32a3a5c5-d200-4948-80b8-b47d591eeaa4', 0, '2026-12-07 08:38:48.84167+00', NULL, 'vm', '{"id":"paced-4","key":"acct-1"}', 'default', 'acct-1', NULL, 0, '2026-12-07 08:38:48.84167+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Paced', '2026-12-07 08:38:48.84167+00', 0);
INSERT INTO public.taskgate_task VALUES ('6768e72e-1984-4723-8670-ca4936961a83', 0, '2026-12-07 08:38:48.868207+00', NULL, 'vm', '{"id":"paced-5","key":"acct-1"}', 'default', 'acct-1', NULL, 0, '2026-12-07 08:38:48.868207+00', 'QUEUED', NULL, 'io.taskgate.it.upgrade.Upgrade$Paced', '2026-12-07 08:38:48.868207+00', 0);


--
-- Data for Name: taskgate_task_audit; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.taskgate_task_audit VALUES ('ecfe1673-650c-4858-b888-2415b676ac15', '2026-12-07 08:37:33.180446+00', 0, NULL, NULL, '236d54ce-9550-4a58-af8a-4b3a7ad144aa', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('8a6a5d5e-624d-4df1-a9ea-cb83de982021', '2026-12-07 08:37:33.275218+00', 0, NULL, NULL, 'bd5f9b54-4eae-4b8f-b78b-dfa3b3e87fa6', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('e327602f-4b2c-4e30-970e-f1448d851da3', '2026-12-07 08:37:33.292543+00', 1, NULL, 'QUEUED', 'bd5f9b54-4eae-4b8f-b78b-dfa3b3e87fa6', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('1b4c738c-97ce-4769-9810-a4172bba0bd2', '2026-12-07 08:37:33.28699+00', 1, NULL, 'QUEUED', '236d54ce-9550-4a58-af8a-4b3a7ad144aa', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('86ce59dc-53b4-4786-943c-f88e4f10c01e', '2026-12-07 08:37:33.338871+00', 0, NULL, NULL, '79ffabe8-f800-4141-b5f0-f04414dc55e7', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('aa9b4b4c-403b-4c71-ad4e-fbbfb70c6c2f', '2026-12-07 08:37:33.344973+00', 1, NULL, 'QUEUED', '79ffabe8-f800-4141-b5f0-f04414dc55e7', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('c3ada8af-b053-412c-868b-7df6203bf593', '2026-12-07 08:37:33.375326+00', 0, NULL, NULL, '4f509899-2d3e-4954-8b0e-1c9e40ac0209', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('7e828397-7149-43ae-b8fa-f2b4d7c9b036', '2026-12-07 08:37:33.362311+00', 1, NULL, 'IN_PROGRESS', '79ffabe8-f800-4141-b5f0-f04414dc55e7', 2, 'COMPLETED');
INSERT INTO public.taskgate_task_audit VALUES ('db031086-d2ad-4fa5-a143-340e6dc798d0', '2026-12-07 08:37:33.387721+00', 1, NULL, 'QUEUED', '4f509899-2d3e-4954-8b0e-1c9e40ac0209', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('f9f295ef-0b3b-43df-a08e-fa28761e0348', '2026-12-07 08:37:33.36091+00', 1, NULL, 'IN_PROGRESS', '236d54ce-9550-4a58-af8a-4b3a7ad144aa', 2, 'COMPLETED');
INSERT INTO public.taskgate_task_audit VALUES ('9e2599fc-7a29-491d-af28-ba51974cdf83', '2026-12-07 08:37:33.355216+00', 1, NULL, 'IN_PROGRESS', 'bd5f9b54-4eae-4b8f-b78b-dfa3b3e87fa6', 2, 'COMPLETED');
INSERT INTO public.taskgate_task_audit VALUES ('870568a4-8642-4152-88e8-d151cf5dd912', '2026-12-07 08:37:33.400129+00', 1, NULL, 'IN_PROGRESS', '4f509899-2d3e-4954-8b0e-1c9e40ac0209', 2, 'COMPLETED');
INSERT INTO public.taskgate_task_audit VALUES ('414b8b16-0a83-4a8e-82cd-e9d17a492214', '2026-12-07 08:37:33.408108+00', 0, NULL, NULL, '2c707038-9c88-473a-8fb8-6c248a77e80f', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('94a84521-9a5e-4980-83d8-84aa676e3ab2', '2026-12-07 08:37:33.415443+00', 1, NULL, 'QUEUED', '2c707038-9c88-473a-8fb8-6c248a77e80f', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('c5dbd189-6d9f-4ced-ad9b-0da7faf03ed1', '2026-12-07 08:37:33.422068+00', 1, NULL, 'IN_PROGRESS', '2c707038-9c88-473a-8fb8-6c248a77e80f', 2, 'COMPLETED');
INSERT INTO public.taskgate_task_audit VALUES ('e40584cc-f8ba-4b91-9043-4d6278b99303', '2026-12-07 08:37:33.437406+00', 0, NULL, NULL, '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('0db4c03b-437f-44ab-92c6-d156fdf95178', '2026-12-07 08:37:33.446917+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('c569a71d-4ba0-4b2e-9dad-e18967abe49e', '2026-12-07 08:37:33.456903+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 2, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('0fe7297e-1c3a-492b-81ec-3db3a0d6a4e0', '2026-12-07 08:37:33.4835+00', 0, NULL, NULL, 'bda9b759-107e-464b-9e2d-73ef3778c918', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('4f79fcad-cd05-482d-8d77-d6a85431f106', '2026-12-07 08:37:33.514992+00', 1, NULL, 'QUEUED', 'bda9b759-107e-464b-9e2d-73ef3778c918', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('b452863e-ee5c-4209-b709-d4553a43e22f', '2026-12-07 08:37:33.510447+00', 0, NULL, NULL, 'ec4c3e67-1c26-4e1c-805d-0df7bfce1328', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('2dd3e3fc-a98b-4690-935e-b135d4f354f5', '2026-12-07 08:37:33.525176+00', 1, NULL, 'QUEUED', 'ec4c3e67-1c26-4e1c-805d-0df7bfce1328', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('ca0ee089-3e9c-4658-bef5-ed3a23d529a9', '2026-12-07 08:37:33.541139+00', 0, NULL, NULL, 'ac279990-f313-4957-a894-4243bff820ce', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('b0b57226-3571-49bd-9dc1-fed4929ccf34', '2026-12-07 08:37:33.545+00', 1, NULL, 'QUEUED', 'ac279990-f313-4957-a894-4243bff820ce', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('d3b7da6e-550d-4c75-9324-2b60786bea89', '2026-12-07 08:37:33.556905+00', 0, NULL, NULL, 'fa2dcd32-236d-4a7a-b558-b746fa504adc', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('b2692bcc-51fb-47d4-abad-29b4c934e630', '2026-12-07 08:37:33.583086+00', 0, NULL, NULL, 'f5209fb2-b66e-41d7-9d21-cce3a82b43d2', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('57b92d4a-d002-48b8-90de-dcdd6cecee31', '2026-12-07 08:37:33.606795+00', 0, NULL, NULL, '699f0709-63c4-4e79-8ba8-864b35dde1eb', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('41d176b0-9388-4be0-beef-e9fe954402cf', '2026-12-07 08:37:33.622779+00', 0, NULL, NULL, '4d7796ec-a184-466c-88ef-7965807bf1eb', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('9a589e6c-e2c5-4ff0-ba24-3ba822722793', '2026-12-07 08:37:33.63613+00', 0, NULL, NULL, '5f027f6e-6f95-4d30-b4d5-7c0982b806b5', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('772d1b67-a63f-4e2b-a38a-e2296c50c922', '2026-12-07 08:37:36.44672+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 3, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('84cfe6f4-9aae-4201-9ee5-df0722c03eb7', '2026-12-07 08:37:36.450984+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 4, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('3a309632-6416-4a72-bfb2-2d6fc38ef3c6', '2026-12-07 08:37:39.448831+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 5, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('8cd00f16-a798-4e69-bea9-b58a7ab97ab2', '2026-12-07 08:37:39.452571+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 6, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('f63ae7a9-726a-4879-8502-623e0ff8974a', '2026-12-07 08:37:42.443737+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 7, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('c1244a6e-d528-4d81-837d-ac28fb8b5e6d', '2026-12-07 08:37:42.447216+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 8, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('99f75e03-33b1-4c4f-a383-28d4be4346a1', '2026-12-07 08:37:45.445131+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 9, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('9884c186-1dc1-4185-85e5-3eacfedb68aa', '2026-12-07 08:37:45.449009+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 10, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('2df47711-859d-4be6-a1c2-722d99792f28', '2026-12-07 08:37:48.443783+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 11, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('9b4e4701-8681-4d81-b7bb-5231d21821b4', '2026-12-07 08:37:48.447908+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 12, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('700ca783-766c-4dd7-94b3-362ad10ff74b', '2026-12-07 08:37:51.444891+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 13, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('125c1856-5e98-48ae-85d8-2fe4a17684e1', '2026-12-07 08:37:51.44858+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 14, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('2ae816a9-73eb-40f6-8564-1b9f71eaf26a', '2026-12-07 08:37:54.442056+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 15, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('c078ace6-4ff6-4b18-97bc-d3b332852e42', '2026-12-07 08:37:54.451653+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 16, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('f66d4bca-d824-43da-9c34-2a22362036c6', '2026-12-07 08:37:57.445105+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 17, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('23e07123-ca17-45e6-a7a4-7e1a11c21037', '2026-12-07 08:37:57.453369+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 18, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('38eb83b4-32c9-479f-9b45-c63ac50cadf6', '2026-12-07 08:38:00.445309+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 19, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('85dcda33-008a-445d-a117-1cc1743fd409', '2026-12-07 08:38:00.453021+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 20, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('4ae2b917-14ab-4428-b810-b3bea185543b', '2026-12-07 08:38:03.444309+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 21, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('71a6ef8a-8609-4a59-aded-1f6ef0f7a3ab', '2026-12-07 08:38:03.45326+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 22, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('e1d96a49-8955-4ad2-b8a9-bfff9fbd4833', '2026-12-07 08:38:06.445248+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 23, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('cecce6d6-0c9e-489c-b147-c1f2e8aabf60', '2026-12-07 08:38:06.451183+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 24, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('bd543cca-918b-448b-b385-a8a21f7651fe', '2026-12-07 08:38:09.449475+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 25, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('4e1bc1cd-f374-4439-9464-23ab8f4a1be7', '2026-12-07 08:38:09.458732+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 26, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('938f96dd-41ce-40d0-ba0e-ade4e0fd2b47', '2026-12-07 08:38:12.443352+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 27, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('bd99c704-f90d-4639-934a-d240b79de084', '2026-12-07 08:38:12.447849+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 28, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('b27d914a-6e14-443b-bdfe-aaf28b969bf0', '2026-12-07 08:38:15.445163+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 29, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('8e185566-be1a-4ae3-971d-91b9a95f2498', '2026-12-07 08:38:15.44926+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 30, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('9ca307a0-f304-4950-b68f-73a3aab3ede0', '2026-12-07 08:38:18.447501+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 31, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('dcbba19d-3352-40bb-b74e-f20f4529db67', '2026-12-07 08:38:18.45437+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 32, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('4db56ea1-4c41-4e4a-9835-2a3a7e5b9fc6', '2026-12-07 08:38:21.442735+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 33, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('fed2abee-f5e3-46de-af6c-a45509dc0176', '2026-12-07 08:38:21.447079+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 34, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('5a2284a3-3891-48d1-b6ef-09b82a3c02c3', '2026-12-07 08:38:24.44221+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 35, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('3c47da07-b84b-47d3-9229-ab84216bd16e', '2026-12-07 08:38:24.448298+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 36, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('316c59d0-c533-440f-b9ab-c59f58bb7850', '2026-12-07 08:38:27.442938+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 37, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('26f222eb-6736-4dd2-9113-3388fa3ae1d9', '2026-12-07 08:38:27.446651+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 38, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('bea552ee-a877-4a6a-80ae-64f998e36071', '2026-12-07 08:38:30.444085+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 39, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('05ce4ae8-4149-4349-b129-f8dad1ed25e4', '2026-12-07 08:38:30.448099+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 40, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('150a9625-342b-4165-ba01-2c5549fef0a9', '2026-12-07 08:38:33.443658+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 41, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('630a3d6c-b4d1-4c3d-9d70-5c8c13bc8214', '2026-12-07 08:38:33.446419+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 42, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('5d35cce8-37f1-4edb-879f-cc91a9d133ae', '2026-12-07 08:38:36.447437+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 43, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('c5dc559c-8777-47cd-9020-81252aea32e0', '2026-12-07 08:38:36.454466+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 44, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('05970717-8e84-4a45-af1e-0eedfc8a2673', '2026-12-07 08:38:39.443787+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 45, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('7ec9eeaf-29ab-4e4e-b402-45bcb4dceafe', '2026-12-07 08:38:39.450015+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 46, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('a9503431-6cb1-4523-ab9e-2b658829f159', '2026-12-07 08:38:42.4427+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 47, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('4534fbc6-3f82-4426-9593-4ff2170cfe17', '2026-12-07 08:38:42.445778+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 48, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('8f30b9eb-0619-4abc-95b1-1550b3da4827', '2026-12-07 08:38:45.444501+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 49, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('a31fdcc0-8168-4d18-8214-0b652334fd92', '2026-12-07 08:38:45.455309+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 50, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('d1672931-c054-4059-a531-097e892f3ce6', '2026-12-07 08:38:48.443752+00', 1, NULL, 'QUEUED', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 51, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('bf6453d3-bed0-4c6a-a44a-7acc140385ac', '2026-12-07 08:38:48.448616+00', 0, NULL, 'IN_PROGRESS', '05d8a0ac-9d55-433f-a017-23e2dfc26ede', 52, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('de1a4feb-9fc4-406b-97b6-8fae618edb2f', '2026-12-07 08:38:48.684369+00', 0, NULL, NULL, 'e92df0b4-8657-4c74-b9b4-6fb126507a13', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('ee49e37c-94fc-4a71-8893-f8003440b3d7', '2026-12-07 08:38:48.745224+00', 1, NULL, 'QUEUED', 'e92df0b4-8657-4c74-b9b4-6fb126507a13', 1, 'IN_PROGRESS');
INSERT INTO public.taskgate_task_audit VALUES ('9942992e-4bb0-4365-be43-700e4ed1316b', '2026-12-07 08:38:48.747195+00', 0, NULL, NULL, '6f36f7ca-e562-4505-b15b-68f83e660f11', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('3ba8c0c2-d214-416b-b0cd-1537cc823736', '2026-12-07 08:38:48.776111+00', 1, NULL, 'IN_PROGRESS', 'e92df0b4-8657-4c74-b9b4-6fb126507a13', 2, 'COMPLETED');
INSERT INTO public.taskgate_task_audit VALUES ('45de3bef-9aca-4a45-b89a-bb184424f904', '2026-12-07 08:38:48.78741+00', 0, NULL, NULL, '5f3d513f-029c-4a4e-b246-6219b71a2430', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('92e52826-ef9b-42da-bd42-e3d7c301322a', '2026-12-07 08:38:48.82045+00', 0, NULL, NULL, '27bfaa45-0e48-4c55-99fd-f991c4b0f71f', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('280e91ff-a307-43e8-abb9-29c978fb032d', '2026-12-07 08:38:48.84167+00', 0, NULL, NULL, '32a3a5c5-d200-4948-80b8-b47d591eeaa4', 0, 'QUEUED');
INSERT INTO public.taskgate_task_audit VALUES ('9171e95a-a7fd-4d92-8d99-d251a623db0c', '2026-12-07 08:38:48.868207+00', 0, NULL, NULL, '6768e72e-1984-4723-8670-ca4936961a83', 0, 'QUEUED');


--
-- Data for Name: taskgate_throttler; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.taskgate_throttler VALUES ('semaphore:upgrade-slots', 0, 0, 0, 'SEMAPHORE', 1, 0, 0, 'upgrade-slots', '2026-12-07 08:37:33.007396+00');


--
-- Data for Name: taskgate_throttler_change; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.taskgate_throttler_change VALUES ('c78c305a-4fcd-4b4d-a7ed-91c13466e497', 'maxCount=1', '2026-12-07 08:37:33.007396+00', NULL, 'admin', 'SEMAPHORE', 'upgrade-slots');


--
-- Data for Name: taskgate_window_count; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: taskgate_instance taskgate_instance_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_instance
    ADD CONSTRAINT taskgate_instance_pkey PRIMARY KEY (id);


--
-- Name: taskgate_minute_count taskgate_minute_count_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_minute_count
    ADD CONSTRAINT taskgate_minute_count_pkey PRIMARY KEY (id);


--
-- Name: taskgate_rate_override taskgate_rate_override_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_rate_override
    ADD CONSTRAINT taskgate_rate_override_pkey PRIMARY KEY (id);


--
-- Name: taskgate_task_audit taskgate_task_audit_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_task_audit
    ADD CONSTRAINT taskgate_task_audit_pkey PRIMARY KEY (id);


--
-- Name: taskgate_task taskgate_task_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_task
    ADD CONSTRAINT taskgate_task_pkey PRIMARY KEY (id);


--
-- Name: taskgate_throttler_change taskgate_throttler_change_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_throttler_change
    ADD CONSTRAINT taskgate_throttler_change_pkey PRIMARY KEY (id);


--
-- Name: taskgate_throttler taskgate_throttler_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_throttler
    ADD CONSTRAINT taskgate_throttler_pkey PRIMARY KEY (name);


--
-- Name: taskgate_window_count taskgate_window_count_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taskgate_window_count
    ADD CONSTRAINT taskgate_window_count_pkey PRIMARY KEY (id);


--
-- Name: taskgate_minute_count_minute; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_minute_count_minute ON public.taskgate_minute_count USING btree (epoch_minute);


--
-- Name: taskgate_task_audit_task; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_task_audit_task ON public.taskgate_task_audit USING btree (task_id, task_version);


--
-- Name: taskgate_task_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_task_created ON public.taskgate_task USING btree (created_at DESC, id DESC);


--
-- Name: taskgate_task_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_task_due ON public.taskgate_task USING btree (status, scheduled_at, id);


--
-- Name: taskgate_task_owner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_task_owner ON public.taskgate_task USING btree (owner_instance, status);


--
-- Name: taskgate_task_rate_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_task_rate_key ON public.taskgate_task USING btree (rate_key, type);


--
-- Name: taskgate_task_type_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_task_type_key ON public.taskgate_task USING btree (type, task_key);


--
-- Name: taskgate_throttler_change_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_throttler_change_at ON public.taskgate_throttler_change USING btree (changed_at);


--
-- Name: taskgate_window_count_bucket; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taskgate_window_count_bucket ON public.taskgate_window_count USING btree (bucket_start);


--
-- PostgreSQL database dump complete
--


