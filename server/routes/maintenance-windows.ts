import type { FastifyInstance } from "fastify";
import {
  CreateMaintenanceWindowSchema,
  ID_PREFIX,
  idParams,
  ListQuerySchema,
  MaintenanceWindowSchema,
  UpdateMaintenanceWindowSchema,
} from "../../api";
import { crudRoutes } from "./crud";

/** /api/v1/maintenance-windows (extension): list, create, get, PATCH, DELETE and batches of them. */
export async function maintenanceWindowRoutes(fastify: FastifyInstance): Promise<void> {
  crudRoutes(fastify, {
    path: "/api/v1/maintenance-windows",
    tag: "maintenance windows",
    summary: "Extension: maintenance windows",
    item: MaintenanceWindowSchema,
    create: CreateMaintenanceWindowSchema,
    update: UpdateMaintenanceWindowSchema,
    query: ListQuerySchema,
    params: idParams(ID_PREFIX.maintenanceWindow),
    service: fastify.services.maintenanceWindows,
    itemRoutes: true,
  });
}
